import { request } from 'node:http'

/** The loopback address the attack tests' "reverse proxy" connects from. */
export const PROXY_ADDRESS = '127.0.0.2'

/**
 * A fetch that reaches localbase the way a reverse proxy at PROXY_ADDRESS would: from that
 * address, with the client's address appended to `X-Forwarded-For` (after whatever the client
 * sent itself). Hand it to supabase-js as `global.fetch` to act as a client behind the proxy;
 * `signal` hangs up on everything it sent.
 */
export function behindProxy(client: string, signal?: AbortSignal): typeof fetch {
  return async (input, init) => {
    const req = new Request(input, init)
    const headers = Object.fromEntries(req.headers)
    const forwarded = req.headers.get('x-forwarded-for')
    headers['x-forwarded-for'] = forwarded ? `${forwarded}, ${client}` : client
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined
    return new Promise<Response>((resolve, reject) => {
      const outgoing = request(req.url, {
        method: req.method,
        headers,
        localAddress: PROXY_ADDRESS,
        signal,
      })
      outgoing.on('response', (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const status = res.statusCode ?? 502
          const answer = new Headers()
          for (const [key, value] of Object.entries(res.headers)) {
            if (typeof value === 'string') answer.set(key, value)
          }
          const empty = status === 204 || status === 304
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: answer }))
        })
        res.on('error', reject)
      })
      outgoing.on('error', reject)
      outgoing.end(body)
    })
  }
}
