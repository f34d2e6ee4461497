import type { IncomingMessage } from 'node:http'
import { Hono } from 'hono'
import type { Service, ServiceContext } from '../context.ts'
import { handle } from './handle.ts'
import { RestState } from './state.ts'

/** PostgREST-compatible /rest/v1 (wire surface §2): tables, views and RPC over PGlite. */
export async function createRestService(ctx: ServiceContext): Promise<Service> {
  const state = new RestState(ctx)
  await state.start()
  const app = new Hono()
  app.all('*', (c) => {
    // @hono/node-server's bindings: the Node request, when there is one.
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
    return handle(state, c.req.raw, c.req.path.replace(/^\/rest\/v1/, ''), incoming?.rawHeaders)
  })
  return { name: 'rest', prefix: '/rest/v1', app, close: () => state.close() }
}
