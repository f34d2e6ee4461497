import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
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

/**
 * Forwards a request to a function process over loopback with node:http rather than fetch,
 * so bytes pass through untouched (fetch would decompress bodies whose Content-Encoding we
 * then forward) and the response streams back as it arrives. `timeoutMs` bounds the wait for
 * the response to start, like the hosted request idle timeout.
 */
export function forward(
  port: number,
  request: Request,
  path: string,
  timeoutMs: number,
): Promise<ProxyResult> {
  const headers: Record<string, string> = {}
  request.headers.forEach((value, key) => {
    if (!hopByHop.has(key)) headers[key] = value
  })
  return new Promise((resolve) => {
    // A fresh loopback connection per request (agent: false): reusing idle keep-alive sockets
    // races with the server closing them, and a reset would look like a crashed function.
    const upstream = httpRequest({
      host: '127.0.0.1',
      port,
      method: request.method,
      path,
      headers,
      agent: false,
    })
    const timer = setTimeout(() => {
      resolve({ kind: 'timeout' })
      upstream.destroy()
    }, timeoutMs)
    const onAbort = () => upstream.destroy()
    request.signal.addEventListener('abort', onAbort, { once: true })
    upstream.once('error', (error) => {
      clearTimeout(timer)
      resolve({ kind: 'failed', error })
    })
    upstream.once('response', (res) => {
      clearTimeout(timer)
      res.once('close', () => request.signal.removeEventListener('abort', onAbort))
      const status = res.statusCode ?? 500
      const empty = nullBodyStatus.has(status)
      if (empty) res.resume()
      const body = empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>)
      resolve({
        kind: 'response',
        response: new Response(body, {
          status,
          statusText: res.statusMessage,
          headers: responseHeaders(res.headers),
        }),
      })
    })
    if (request.body) {
      Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>)
        .once('error', (error) => upstream.destroy(error))
        .pipe(upstream)
    } else {
      upstream.end()
    }
  })
}
