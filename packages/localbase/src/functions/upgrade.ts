import type { IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import type { Duplex } from 'node:stream'
import type { UpgradeHandler } from '../context.ts'
import { writeResponse } from '../gateway/socket-response.ts'

/** Decides a WebSocket upgrade: a platform refusal to send, or the port to splice to. */
export type UpgradeTarget = (
  path: string,
  headers: Headers,
) => Promise<{ refused: Response } | { port: number }>

/**
 * WebSocket functions (`Deno.upgradeWebSocket`): once the platform checks pass, the upgrade
 * request is replayed byte for byte to the function's port and the two sockets are spliced,
 * so the handshake and every frame are the function's own.
 */
export function functionsUpgrade(prefix: string, target: UpgradeTarget): UpgradeHandler {
  return (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = req.url ?? ''
    if (!url.startsWith(`${prefix}/`)) return false
    const path = url.slice(prefix.length)
    const headers = new Headers()
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!)
    }
    socket.on('error', () => socket.destroy())
    void target(path, headers)
      .then(async (decision) => {
        if ('refused' in decision) return writeResponse(socket, decision.refused)
        const upstream = connect(decision.port, '127.0.0.1')
        const lines = [`${req.method} ${path} HTTP/1.1`]
        for (let i = 0; i < req.rawHeaders.length; i += 2) {
          lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`)
        }
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`)
        if (head.length) upstream.write(head)
        upstream.on('error', () => socket.destroy())
        socket.on('close', () => upstream.destroy())
        upstream.on('close', () => socket.destroy())
        upstream.pipe(socket)
        socket.pipe(upstream)
      })
      .catch(() => socket.destroy())
    return true
  }
}
