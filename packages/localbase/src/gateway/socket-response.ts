import type { Duplex } from 'node:stream'

/** Answers a WebSocket upgrade with a plain HTTP response and closes the socket. */
export async function writeResponse(socket: Duplex, response: Response): Promise<void> {
  const body = await response.text()
  const head = [`HTTP/1.1 ${response.status} ${response.statusText || 'Error'}`]
  response.headers.forEach((value, key) => head.push(`${key}: ${value}`))
  head.push(`content-length: ${Buffer.byteLength(body)}`, 'connection: close')
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`)
}
