import { request } from 'node:http'
import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY, DEFAULT_PUBLISHABLE_KEY } from '../src/config/keys.ts'
import { startTestStack, type TestStack } from './helpers.ts'
import { Inbox, realtimeClient, settle, subscribed } from './realtime-helpers.ts'

describe('realtime broadcast and presence', () => {
  let stack: TestStack
  const clients: SupabaseClient[] = []
  const client = (options: Parameters<typeof realtimeClient>[1] = {}) => {
    const c = realtimeClient(stack, options)
    clients.push(c)
    return c
  }
  beforeAll(async () => {
    stack = await startTestStack('realtime')
  })
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.removeAllChannels()
  })
  afterAll(() => stack?.stop())

  for (const vsn of ['1.0.0', '2.0.0'] as const) {
    it(`delivers a broadcast between two clients on vsn ${vsn}`, async () => {
      const inbox = new Inbox<unknown>()
      await subscribed(
        client({ vsn })
          .channel(`room-${vsn}`)
          .on('broadcast', { event: 'msg' }, (m) => inbox.push(m)),
      )
      const sender = await subscribed(client({ vsn }).channel(`room-${vsn}`))
      expect(
        await sender.send({ type: 'broadcast', event: 'msg', payload: { n: 1, s: 'é' } }),
      ).toBe('ok')
      const [got] = await inbox.waitFor(1)
      expect(got).toEqual({ type: 'broadcast', event: 'msg', payload: { n: 1, s: 'é' } })
    })
  }

  it('connects with a publishable key, which joins without an access_token', async () => {
    const inbox = new Inbox<unknown>()
    await subscribed(
      client({ key: DEFAULT_PUBLISHABLE_KEY })
        .channel('sb-keys')
        .on('broadcast', { event: 'hi' }, (m) => inbox.push(m.payload)),
    )
    const sender = await subscribed(client({ key: DEFAULT_PUBLISHABLE_KEY }).channel('sb-keys'))
    await sender.send({ type: 'broadcast', event: 'hi', payload: { ok: true } })
    expect(await inbox.waitFor(1)).toEqual([{ ok: true }])
  })

  it('carries binary payloads between v2 clients', async () => {
    const inbox = new Inbox<{ payload: ArrayBuffer }>()
    await subscribed(
      client()
        .channel('bytes')
        .on('broadcast', { event: 'blob' }, (m) => inbox.push(m as never)),
    )
    const sender = await subscribed(client().channel('bytes'))
    await sender.send({
      type: 'broadcast',
      event: 'blob',
      payload: new Uint8Array([1, 2, 255]).buffer,
    })
    const [got] = await inbox.waitFor(1)
    expect([...new Uint8Array(got!.payload)]).toEqual([1, 2, 255])
  })

  it('a v1 and a v2 client hear each other', async () => {
    const v1Inbox = new Inbox<unknown>()
    const v2Inbox = new Inbox<unknown>()
    const v1 = await subscribed(
      client({ vsn: '1.0.0' })
        .channel('mixed')
        .on('broadcast', { event: 'e' }, (m) => v1Inbox.push(m.payload)),
    )
    const v2 = await subscribed(
      client()
        .channel('mixed')
        .on('broadcast', { event: 'e' }, (m) => v2Inbox.push(m.payload)),
    )
    await v1.send({ type: 'broadcast', event: 'e', payload: { from: 'v1' } })
    await v2.send({ type: 'broadcast', event: 'e', payload: { from: 'v2' } })
    expect(await v1Inbox.waitFor(1)).toEqual([{ from: 'v2' }])
    expect(await v2Inbox.waitFor(1)).toEqual([{ from: 'v1' }])
  })

  it('echoes to the sender only with self, and acknowledges only with ack', async () => {
    const plain = new Inbox<unknown>()
    const selfish = new Inbox<unknown>()
    const a = await subscribed(
      client()
        .channel('echo')
        .on('broadcast', { event: 'x' }, (m) => plain.push(m.payload)),
    )
    const b = await subscribed(
      client()
        .channel('echo', { config: { broadcast: { self: true, ack: true } } })
        .on('broadcast', { event: 'x' }, (m) => selfish.push(m.payload)),
    )
    await a.send({ type: 'broadcast', event: 'x', payload: { by: 'a' } })
    expect(await b.send({ type: 'broadcast', event: 'x', payload: { by: 'b' } })).toBe('ok')
    await plain.waitFor(1)
    await selfish.waitFor(2)
    await settle()
    expect(plain.items).toEqual([{ by: 'b' }])
    expect(selfish.items).toEqual([{ by: 'a' }, { by: 'b' }])
  })

  it('tracks presence joins and leaves with phx_ref metas', async () => {
    const syncs = new Inbox<Record<string, unknown[]>>()
    const leaves = new Inbox<string>()
    const watcher = client()
      .channel('lobby', { config: { presence: { key: 'watcher' } } })
      .on('presence', { event: 'sync' }, () => syncs.push(watcher.presenceState()))
      .on('presence', { event: 'leave' }, ({ key }) => leaves.push(key))
    await subscribed(watcher)
    const other = client()
    const visitor = await subscribed(
      other.channel('lobby', { config: { presence: { key: 'alice' } } }),
    )
    expect(await visitor.track({ status: 'online' })).toBe('ok')
    await syncs.waitFor(1)
    await expect
      .poll(() => syncs.items.at(-1)?.alice)
      .toEqual([expect.objectContaining({ status: 'online', presence_ref: expect.any(String) })])
    await other.removeChannel(visitor)
    expect(await leaves.waitFor(1)).toEqual(['alice'])
    expect(watcher.presenceState()).toEqual({})
  })

  it('sends presence_state on join only when presence is enabled', async () => {
    const tracker = await subscribed(
      client().channel('stage', { config: { presence: { key: 'k1' } } }),
    )
    await tracker.track({ on: true })
    const frames = new Inbox<string>()
    const listener = client().channel('stage')
    listener.on('presence', { event: 'sync' }, () => frames.push('sync'))
    await subscribed(listener)
    await frames.waitFor(1)
    expect(listener.presenceState()).toEqual({
      k1: [expect.objectContaining({ on: true, presence_ref: expect.any(String) })],
    })

    const raw = await rawJoin(stack.url, 'realtime:stage', { presence: { enabled: false } })
    expect(raw.map((f) => f[3])).toEqual(['phx_reply'])
  })

  it('announces replication readiness when asked to', async () => {
    const system = new Inbox<unknown>()
    await subscribed(
      client()
        .channel('ready', { config: { broadcast: { replication_ready: true } } })
        .on('system', {}, system.push),
    )
    expect(await system.waitFor(1)).toEqual([
      expect.objectContaining({
        extension: 'system',
        status: 'ok',
        message: 'Replication connection established',
      }),
    ])
  })

  it('accepts broadcasts over HTTP: the batch endpoint and httpSend', async () => {
    const inbox = new Inbox<unknown>()
    const listener = await subscribed(
      client()
        .channel('http-room')
        .on('broadcast', { event: '*' }, (m) => inbox.push([m.event, m.payload])),
    )
    const res = await fetch(`${stack.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { apikey: stack.config.keys.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ topic: 'http-room', event: 'batch', payload: { a: 1 } }],
      }),
    })
    expect(res.status).toBe(202)
    expect(await listener.httpSend('single', { b: 2 })).toEqual({ success: true })
    expect(await inbox.waitFor(2)).toEqual([
      ['batch', { a: 1 }],
      ['single', { b: 2 }],
    ])

    const bad = await fetch(`${stack.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { apikey: stack.config.keys.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ event: 'no-topic' }] }),
    })
    expect(bad.status).toBe(422)
    const unauthorized = await fetch(`${stack.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { apikey: 'sb_publishable_wrong', 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [] }),
    })
    expect(unauthorized.status).toBe(401)
  })

  it('answers heartbeats and rejects the empty topic', async () => {
    const frames = await rawExchange(stack.url, [
      [null, '1', 'phoenix', 'heartbeat', {}],
      ['2', '2', 'realtime:', 'phx_join', { config: {} }],
    ])
    expect(frames).toEqual([
      [null, '1', 'phoenix', 'phx_reply', { status: 'ok', response: {} }],
      [
        '2',
        '2',
        'realtime:',
        'phx_reply',
        {
          status: 'error',
          response: { reason: 'TopicNameRequired: You must provide a topic name' },
        },
      ],
    ])
  })

  it('survives garbage and oversized frames, closing only the offending socket', async () => {
    const ws = new WebSocket(
      `${stack.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${DEFAULT_ANON_KEY}&vsn=2.0.0`,
    )
    await new Promise((resolve, reject) => {
      ws.onopen = resolve
      ws.onerror = reject
    })
    const closed = new Promise<number>((resolve) => (ws.onclose = (e) => resolve(e.code)))
    ws.send('not json')
    ws.send(new Uint8Array([9, 9, 9]))
    ws.send(new Uint8Array(4 * 1024 * 1024))
    expect(await closed).toBe(1009)
    const frames = await rawExchange(stack.url, [[null, '1', 'phoenix', 'heartbeat', {}]])
    expect(frames).toEqual([[null, '1', 'phoenix', 'phx_reply', { status: 'ok', response: {} }]])
  })

  it('refuses a socket with a bad key and a join with a bad token', async () => {
    const refused = await upgradeStatus(`${stack.url}/realtime/v1/websocket?apikey=bad&vsn=2.0.0`)
    expect(refused).toEqual({
      status: 401,
      body: {
        message: 'Invalid API key',
        hint: 'Double check your Supabase `anon` or `service_role` API key.',
      },
    })

    const c = client()
    await c.realtime.setAuth(`${stack.config.keys.anonKey.slice(0, -4)}AAAA`)
    await expect(subscribed(c.channel('guarded'))).rejects.toThrow(
      /JwtSignatureError: Failed to validate JWT signature/,
    )
  })
})

type Frame = [string | null, string | null, string, string, Record<string, unknown>]

/** Sends raw v2 frames on a fresh socket and returns every frame received within a moment. */
async function rawExchange(url: string, frames: Frame[]): Promise<Frame[]> {
  const ws = new WebSocket(
    `${url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${DEFAULT_ANON_KEY}&vsn=2.0.0`,
  )
  const got: Frame[] = []
  ws.onmessage = (e) => got.push(JSON.parse(String(e.data)))
  await new Promise((resolve, reject) => {
    ws.onopen = resolve
    ws.onerror = reject
  })
  for (const frame of frames) ws.send(JSON.stringify(frame))
  await settle()
  ws.close()
  return got
}

/** The HTTP answer to a WebSocket upgrade that the server refuses. */
function upgradeStatus(url: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    })
    req.on('response', (res) => {
      let text = ''
      res.on('data', (chunk) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }))
    })
    req.on('upgrade', () => reject(new Error('upgraded')))
    req.on('error', reject)
    req.end()
  })
}

function rawJoin(url: string, topic: string, config: Record<string, unknown>) {
  return rawExchange(url, [['1', '1', topic, 'phx_join', { config }]])
}
