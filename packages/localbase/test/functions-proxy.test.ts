import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { forward } from '../src/functions/proxy.ts'

// The gateway's side of a function call against a real HTTP server that behaves as a function
// process may: it answers on kept-alive connections, and closes one unanswered when told to
// (as a server closing an idle connection just as a call is sent on it would).
let server: Server
let port: number
const seen: { body: string; socket: Socket; callOnSocket: number }[] = []
const callsOn = new WeakMap<Socket, number>()
/** Close the connection unanswered on its nth call ('never' | 'reused' | 'always'). */
let drop: 'never' | 'reused' | 'always' = 'never'

const read = async (req: IncomingMessage) => {
  let body = ''
  for await (const chunk of req) body += chunk
  return body
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await read(req)
    const callOnSocket = (callsOn.get(req.socket) ?? 0) + 1
    callsOn.set(req.socket, callOnSocket)
    seen.push({ body, socket: req.socket, callOnSocket })
    if (drop === 'always' || (drop === 'reused' && callOnSocket > 1)) {
      req.socket.destroy()
      return
    }
    if (req.url === '/cut') {
      // A process that dies partway through a small answer of declared length.
      res.writeHead(200, { 'content-length': '100' })
      res.write('partial')
      setTimeout(() => req.socket.destroy(), 20)
      return
    }
    res.setHeader('content-type', 'text/plain')
    res.end(`${req.method} ${req.url} ${body}`)
  })
  server.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const post = (body: string) =>
  new Request('http://localbase/functions/v1/f', {
    method: 'POST',
    body,
    headers: { 'content-length': String(Buffer.byteLength(body)) },
  })

async function text(result: Awaited<ReturnType<typeof forward>>) {
  if (result.kind !== 'response') throw new Error(`no response: ${result.kind}`)
  return result.response.text()
}

describe('forwarding to a function process', () => {
  it('reuses one connection for consecutive small calls', async () => {
    drop = 'never'
    seen.length = 0
    expect(await text(await forward(port, post('a'), '/f', 5000))).toBe('POST /f a')
    expect(await text(await forward(port, post('b'), '/f?x=1', 5000))).toBe('POST /f?x=1 b')
    expect(seen.map((s) => s.body)).toEqual(['a', 'b'])
    expect(seen[1]!.socket).toBe(seen[0]!.socket)
  })

  it('sends a call again on a new connection when a reused one closes unanswered', async () => {
    drop = 'never'
    await text(await forward(port, post('warm'), '/f', 5000))
    drop = 'reused'
    seen.length = 0
    const result = await forward(port, post('once more'), '/f', 5000)
    expect(await text(result)).toBe('POST /f once more')
    // Dropped on the kept-alive connection, answered on a fresh one.
    expect(seen.map((s) => [s.body, s.callOnSocket > 1])).toEqual([
      ['once more', true],
      ['once more', false],
    ])
  })

  it('does not send again when a new connection closes unanswered: the call failed', async () => {
    drop = 'always'
    await new Promise((resolve) => setTimeout(resolve, 1200)) // idle pooled sockets closed by now
    seen.length = 0
    const result = await forward(port, post('crash'), '/f', 5000)
    expect(result.kind).toBe('failed')
    expect(seen).toHaveLength(1)
    drop = 'never'
  })

  it('passes a small answer on whole, and calls one cut off partway a failed call', async () => {
    drop = 'never'
    const result = await forward(port, post('whole'), '/f', 5000)
    expect(result.kind).toBe('response')
    if (result.kind !== 'response') return
    expect(result.response.headers.get('content-length')).toBe('13')
    expect(await result.response.text()).toBe('POST /f whole')
    // Not a response whose body breaks after the client has been told 200.
    expect((await forward(port, post('cut'), '/cut', 5000)).kind).toBe('failed')
  })

  it('streams a body of unknown length through a connection of its own', async () => {
    drop = 'never'
    seen.length = 0
    const chunks = ['one ', 'two']
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk))
        controller.close()
      },
    })
    const request = new Request('http://localbase/functions/v1/f', {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit)
    expect(await text(await forward(port, request, '/f', 5000))).toBe('POST /f one two')
    expect(seen[0]!.callOnSocket).toBe(1)
  })
})
