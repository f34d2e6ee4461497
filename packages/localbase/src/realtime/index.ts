import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'
import type { Service, ServiceContext } from '../context.ts'
import { writeResponse } from '../gateway/socket-response.ts'
import { confirmToken } from './auth.ts'
import { broadcastRoutes } from './broadcast-api.ts'
import { ChangeFeed } from './changes.ts'
import { Connection, type Realtime } from './connection.ts'
import { parseVsn } from './frames.ts'
import { Hub } from './hub.ts'
import { Presence } from './presence.ts'

/** Supabase Realtime at /realtime/v1: the Phoenix socket, broadcast over HTTP, postgres_changes. */
export async function createRealtimeService(ctx: ServiceContext): Promise<Service> {
  const hub = new Hub()
  const feed = new ChangeFeed(ctx, hub)
  const rt: Realtime = { ctx, hub, presence: new Presence(hub), catchUp: () => feed.catchUp() }
  await feed.start()
  const wss = new WebSocketServer({ noServer: true, maxPayload: 3 * 1024 * 1024 })

  // The socket authenticates with the `apikey` query parameter (docs §4.2, trap §10.2.3);
  // refusals are HTTP 401 with Realtime's `{error}` body, before the upgrade.
  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): boolean => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (url.pathname.replace(/\/+$/, '') !== '/realtime/v1/websocket') return false
    const vsn = parseVsn(url.searchParams.getAll('vsn').at(-1) ?? null)
    const apikey = url.searchParams.get('apikey') ?? headerValue(req, 'x-api-key')
    if (!vsn) {
      refuse(socket, 400, 'Unsupported serializer version')
      return true
    }
    if (!apikey) {
      refuse(socket, 401, 'API key is missing')
      return true
    }
    void confirmToken(ctx.callers, apikey).then(
      (auth) => {
        if (!auth.ok) return refuse(socket, 401, auth.reason.replace(/^[A-Za-z]+: /, ''))
        wss.handleUpgrade(req, socket, head, (ws) => new Connection(ws, vsn, apikey, rt))
      },
      () => refuse(socket, 500, 'Error connecting to Realtime'),
    )
    return true
  }

  return {
    name: 'realtime',
    prefix: '/realtime/v1',
    app: broadcastRoutes(rt),
    upgrade,
    close: async () => {
      for (const client of wss.clients) client.terminate()
      await new Promise((resolve) => wss.close(resolve))
      await feed.close()
    },
  }
}

function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name]
  return typeof value === 'string' ? value : null
}

function refuse(socket: Duplex, status: number, message: string): void {
  const statusText = status === 401 ? 'Unauthorized' : status === 400 ? 'Bad Request' : 'Error'
  void writeResponse(socket, Response.json({ error: message }, { status, statusText }))
}
