import { type Context, Hono } from 'hono'
import type { Caller } from '../gateway/caller.ts'
import { channelPolicies, DENIED } from './auth.ts'
import type { Realtime } from './connection.ts'
import type { BroadcastBody } from './frames.ts'

type Outgoing = { topic: string; event: string; body: BroadcastBody; private: boolean }

/**
 * Broadcast over HTTP (docs §4.4 "REST broadcast"): the batch endpoint and httpSend's
 * per-event endpoint, both 202 with an empty body. Private messages reach subscribers only
 * when the caller passes the INSERT policy on realtime.messages for that topic.
 */
export function broadcastRoutes(rt: Realtime): Hono {
  const app = new Hono()

  const caller = async (c: Context): Promise<Caller | Response> => {
    const result = await rt.ctx.callers.resolve(
      c.req.header('apikey') ?? null,
      c.req.header('authorization') ?? null,
    )
    return result.ok ? result.caller : c.json({ message: result.error.message }, 401)
  }

  const send = async (who: Caller, messages: Outgoing[]) => {
    for (const m of messages) {
      if (m.private) {
        const policies = await channelPolicies(rt.ctx.db, m.topic, who.role, who.claims).catch(
          () => DENIED,
        )
        if (!policies.broadcast.write) continue
      }
      rt.hub.broadcast(`realtime:${m.topic}`, m.private, m.event, m.body, null)
    }
  }

  app.post('/api/broadcast', async (c) => {
    const who = await caller(c)
    if (who instanceof Response) return who
    const body: unknown = await c.req.json().catch(() => null)
    const raw = (body as { messages?: unknown } | null)?.messages
    const valid =
      Array.isArray(raw) &&
      raw.every(
        (m) =>
          m &&
          typeof m === 'object' &&
          typeof m.topic === 'string' &&
          m.topic &&
          typeof m.event === 'string' &&
          (m.private === undefined || typeof m.private === 'boolean'),
      )
    if (!valid) return c.json({ errors: { messages: ['is invalid'] } }, 422)
    await send(
      who,
      (raw as Record<string, unknown>[]).map((m) => ({
        topic: m.topic as string,
        event: m.event as string,
        body: { json: m.payload ?? {} },
        private: m.private === true,
      })),
    )
    return c.body(null, 202)
  })

  app.post('/api/broadcast/:topic/events/:event', async (c) => {
    const who = await caller(c)
    if (who instanceof Response) return who
    const isJson = (c.req.header('content-type') ?? '').includes('json')
    let body: BroadcastBody
    if (isJson) {
      const parsed: unknown = await c.req.json().catch(() => undefined)
      if (parsed === undefined) return c.json({ message: 'Invalid JSON body' }, 422)
      body = { json: parsed }
    } else {
      body = { bytes: Buffer.from(await c.req.arrayBuffer()) }
    }
    const isPrivate = c.req.query('private') === 'true'
    await send(who, [
      { topic: c.req.param('topic'), event: c.req.param('event'), body, private: isPrivate },
    ])
    return c.body(null, 202)
  })

  app.all('*', (c) => c.json({ message: 'not found' }, 404))
  return app
}
