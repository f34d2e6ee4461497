import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { Readable } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'

export type ProxyResult =
  { kind: 'response'; response: Response } | { kind: 'timeout' } | { kind: 'failed'; error: Error }

// Connection-level headers belong to each hop, not to the message.
const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'upgrade'])
const nullBodyStatus = new Set([101, 103, 204, 205, 304])

function responseHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers()
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined || hopByHop.has(key)) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(key, item)
  }
  return headers
}

// A new loopback connection per call cost the gateway about 1 ms of CPU per search (connect,
// then the socket's setup on both sides), a fifth of its share. Calls whose body is small and
// sized (a search, a chat question) or absent therefore reuse idle connections. This side
// closes an idle one after `idleMs`, long before Deno would; should Deno close one anyway
// just as a call is sent on it, the call fails before any answer and is sent once more on a
// new connection (the body is at hand), instead of looking like a crashed function. Bodies of
// unknown or large size stream through a connection of their own, as before.
const idleMs = 1_000
const maxBufferedBody = 64 * 1024
const keptAlive = new Agent({ keepAlive: true, timeout: idleMs })

/** The body as bytes when it is absent or small and sized; undefined when it must stream. */
async function smallBody(request: Request): Promise<Uint8Array | null | undefined> {
  // By method, not `request.body`: reading that makes @hono/node-server build a full fetch
  // Request around the socket, and arrayBuffer() would then read through web streams.
  if (request.method === 'GET' || request.method === 'HEAD') return null
  const length = Number(request.headers.get('content-length') ?? NaN)
  if (!(length <= maxBufferedBody) || request.headers.has('transfer-encoding')) return undefined
  return new Uint8Array(await request.arrayBuffer())
}

/**
 * Forwards a request to a function process over loopback with node:http rather than fetch,
 * so bytes pass through untouched (fetch would decompress bodies whose Content-Encoding we
 * then forward) and the response streams back as it arrives. `timeoutMs` bounds the wait for
 * the response to start, like the hosted request idle timeout.
 */
export async function forward(
  port: number,
  request: Request,
  path: string,
  timeoutMs: number,
): Promise<ProxyResult> {
  const headers: Record<string, string> = {}
  request.headers.forEach((value, key) => {
    if (!hopByHop.has(key)) headers[key] = value
  })
  let body: Uint8Array | null | undefined
  try {
    body = await smallBody(request)
  } catch (error) {
    return { kind: 'failed', error: error as Error }
  }
  if (body === undefined) return settled(await send(port, request, path, headers, timeoutMs))
  const first = await send(port, request, path, headers, timeoutMs, body)
  if (first.kind !== 'stale') return first
  return settled(await send(port, request, path, headers, timeoutMs, body, false))
}

type Attempt = ProxyResult | { kind: 'stale' }

/** A new connection is never stale; should it close unanswered all the same, that failed. */
const settled = (attempt: Attempt): ProxyResult =>
  attempt.kind === 'stale'
    ? { kind: 'failed', error: new Error('the function closed the connection unanswered') }
    : attempt

/**
 * One attempt: a streamed body (`undefined`) on a connection of its own; bytes (or none) on a
 * kept-alive one unless `reuse` is false. 'stale': a reused connection failed before any
 * answer came (the other side had closed it).
 */
function send(
  port: number,
  request: Request,
  path: string,
  headers: Record<string, string>,
  timeoutMs: number,
  body?: Uint8Array | null,
  reuse = body !== undefined,
): Promise<Attempt> {
  return new Promise((resolve) => {
    let answered = false
    const upstream = httpRequest({
      host: '127.0.0.1',
      port,
      method: request.method,
      path,
      headers,
      agent: reuse ? keptAlive : false,
    })
    const timer = setTimeout(() => {
      resolve({ kind: 'timeout' })
      upstream.destroy()
    }, timeoutMs)
    const onAbort = () => upstream.destroy()
    request.signal.addEventListener('abort', onAbort, { once: true })
    upstream.once('error', (error) => {
      clearTimeout(timer)
      request.signal.removeEventListener('abort', onAbort)
      const stale = upstream.reusedSocket && !request.signal.aborted && !answered
      resolve(stale ? { kind: 'stale' } : { kind: 'failed', error })
    })
    upstream.once('response', (res) => {
      answered = true
      clearTimeout(timer)
      const status = res.statusCode ?? 500
      const init = { status, statusText: res.statusMessage, headers: responseHeaders(res.headers) }
      const answer = (body: BodyInit | null) =>
        resolve({ kind: 'response', response: new Response(body, init) })
      res.once('close', () => {
        request.signal.removeEventListener('abort', onAbort)
        if (!res.complete) resolve({ kind: 'failed', error: new Error('the answer was cut off') })
      })
      if (nullBodyStatus.has(status)) {
        res.resume()
        return answer(null)
      }
      // A small answer of declared length (a search's results) is passed on whole: one write
      // to the client, headers included, and no web stream to pump. Others stream as they
      // come (chat's server-sent events).
      if (Number(res.headers['content-length']) <= maxBufferedBody) {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.once('end', () => answer(Buffer.concat(chunks)))
        return
      }
      answer(Readable.toWeb(res) as ReadableStream<Uint8Array>)
    })
    if (body !== undefined) {
      upstream.end(body ?? undefined)
    } else if (request.body) {
      Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>)
        .once('error', (error) => upstream.destroy(error))
        .pipe(upstream)
    } else {
      upstream.end()
    }
  })
}
