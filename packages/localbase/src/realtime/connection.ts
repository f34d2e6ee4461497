import { randomUUID } from 'node:crypto'
import type { WebSocket } from 'ws'
import type { ServiceContext } from '../context.ts'
import { channelPolicies, confirmToken, DENIED } from './auth.ts'
import { parseSubscription } from './filters.ts'
import { type BroadcastBody, decodeFrame, encodeFrame, type Message, type Vsn } from './frames.ts'
import type { Channel, Hub, Peer } from './hub.ts'
import type { Presence } from './presence.ts'

const MAX_TIMER_MS = 2 ** 31 - 1
const IDLE_TIMEOUT_MS = 60_000

export type Realtime = {
  ctx: ServiceContext
  hub: Hub
  presence: Presence
  /** Settles every change committed so far, before a new subscriber starts listening. */
  catchUp: () => Promise<void>
}

/**
 * One Phoenix socket (docs §4.2-4.4): heartbeat on `phoenix`, phx_join/phx_leave, broadcast,
 * presence and access_token pushes for each joined `realtime:` topic.
 */
export class Connection implements Peer {
  readonly vsn: Vsn
  private readonly ws: WebSocket
  private readonly rt: Realtime
  /** The token from the `apikey` query parameter, used by joins that bring none. */
  private readonly socketToken: string
  private readonly channels = new Map<string, Channel>()
  /** Frames are handled one at a time, in order, as a Phoenix socket does. */
  private queue: Promise<void> = Promise.resolve()

  constructor(ws: WebSocket, vsn: Vsn, socketToken: string, rt: Realtime) {
    this.ws = ws
    this.vsn = vsn
    this.socketToken = socketToken
    this.rt = rt
    // Like Phoenix's transport timeout: a socket silent for a minute (clients heartbeat every
    // 25 s) is dead, and its channels and presence go with it.
    let lastSeen = Date.now()
    const idle = setInterval(() => {
      if (Date.now() - lastSeen > IDLE_TIMEOUT_MS) ws.terminate()
    }, IDLE_TIMEOUT_MS / 4)
    idle.unref()
    ws.on('message', (data, isBinary) => {
      lastSeen = Date.now()
      const message = decodeFrame(toBuffer(data), isBinary, vsn)
      if (!message) return
      this.queue = this.queue.then(() =>
        this.handle(message).catch((error: unknown) => this.fail(message, error)),
      )
    })
    // Malformed or oversized frames end this socket only (ws closes it with 1002/1009).
    ws.on('error', () => ws.terminate())
    ws.on('close', () => {
      clearInterval(idle)
      for (const channel of this.channels.values()) this.leave(channel)
    })
  }

  send(data: string | Buffer): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(data)
  }

  private reply(message: Message, status: 'ok' | 'error', response: Record<string, unknown>) {
    const { joinRef, ref, topic } = message
    this.push({ joinRef, ref, topic, event: 'phx_reply', payload: { status, response } })
  }

  private push(message: Message): void {
    this.send(encodeFrame(message, this.vsn))
  }

  private system(channel: Channel, extension: string, status: string, message: string) {
    this.push({
      joinRef: channel.joinRef,
      ref: null,
      topic: channel.topic,
      event: 'system',
      payload: { extension, status, message, channel: channel.subTopic },
    })
  }

  private fail(message: Message, error: unknown): void {
    console.error(`[localbase] realtime ${message.event} on ${message.topic}:`, error)
    this.reply(message, 'error', { reason: 'Unknown Error on Channel' })
  }

  private async handle(message: Message): Promise<void> {
    if (message.topic === 'phoenix') {
      if (message.event === 'heartbeat') this.reply(message, 'ok', {})
      return
    }
    if (message.event === 'phx_join') return this.join(message)
    const channel = this.channels.get(message.topic)
    if (!channel) {
      if (message.event === 'phx_leave') this.reply(message, 'ok', {})
      else this.reply(message, 'error', { reason: 'unmatched topic' })
      return
    }
    switch (message.event) {
      case 'phx_leave':
        this.leave(channel)
        this.reply(message, 'ok', {})
        this.push({ ...message, ref: message.joinRef, event: 'phx_close', payload: {} })
        return
      case 'broadcast':
        return this.broadcast(channel, message)
      case 'presence':
        return this.presence(channel, message)
      case 'access_token':
        return this.refreshToken(channel, message)
    }
  }

  private async join(message: Message): Promise<void> {
    const { topic, payload } = message
    if (!topic.startsWith('realtime:') || topic === 'realtime:') {
      this.reply(message, 'error', { reason: 'TopicNameRequired: You must provide a topic name' })
      return
    }
    const existing = this.channels.get(topic)
    if (existing) this.leave(existing)
    const config = (payload.config ?? {}) as Record<string, Record<string, unknown> | unknown>
    const broadcast = (config.broadcast ?? {}) as Record<string, unknown>
    const presence = (config.presence ?? {}) as Record<string, unknown>
    const requested = Array.isArray(config.postgres_changes) ? config.postgres_changes : []

    const offered = typeof payload.access_token === 'string' ? payload.access_token : null
    const token = offered && !offered.startsWith('sb_') ? offered : this.socketToken
    const auth = await confirmToken(this.rt.ctx.callers, token)
    if (!auth.ok) return this.reply(message, 'error', { reason: auth.reason })

    const subTopic = topic.slice('realtime:'.length)
    const isPrivate = config.private === true
    let policies = null
    if (isPrivate) {
      policies = await channelPolicies(this.rt.ctx.db, subTopic, auth.role, auth.claims).catch(
        () => DENIED,
      )
      if (!policies.broadcast.read && !policies.presence.read) {
        return this.reply(message, 'error', {
          reason: `Unauthorized: You do not have permissions to read from this Channel topic: ${subTopic}`,
        })
      }
    }

    const bindings: Channel['bindings'] = []
    const echoes: Record<string, unknown>[] = []
    const errors: string[] = []
    for (const params of requested as Record<string, unknown>[]) {
      if (!params || typeof params !== 'object') continue
      const id = bindingId(params)
      echoes.push({ ...params, id })
      const parsed = parseSubscription(params)
      if (parsed.ok) bindings.push({ id, subscription: parsed.value })
      else errors.push(parsed.error)
    }
    // A subscriber hears changes committed after it joined, not the queue's backlog: on a
    // Postgres server the NOTIFY that drains it can still be on its way.
    if (bindings.length) await this.rt.catchUp()
    // The socket may have closed while the token and policies were checked.
    if (this.ws.readyState !== this.ws.OPEN) return
    const channel: Channel = {
      peer: this,
      topic,
      subTopic,
      joinRef: message.joinRef,
      self: broadcast.self === true,
      ack: broadcast.ack === true,
      presenceKey: typeof presence.key === 'string' && presence.key ? presence.key : randomUUID(),
      presenceEnabled: presence.enabled === true,
      private: isPrivate,
      policies,
      role: auth.role,
      claims: auth.claims,
      token,
      bindings,
      expiry: null,
    }
    this.channels.set(topic, channel)
    this.rt.hub.add(channel)
    this.expireAt(channel)
    this.reply(message, 'ok', { postgres_changes: echoes })
    if (channel.presenceEnabled && (!policies || policies.presence.read)) {
      this.push({
        joinRef: channel.joinRef,
        ref: null,
        topic,
        event: 'presence_state',
        payload: this.rt.presence.state(channel),
      })
    }
    // Our change feed is trigger-based and always ready, so the opt-in notice goes out at once.
    if (broadcast.replication_ready === true)
      this.system(channel, 'system', 'ok', 'Replication connection established')
    if (requested.length) {
      if (errors.length) this.system(channel, 'postgres_changes', 'error', errors.join('; '))
      else this.system(channel, 'postgres_changes', 'ok', 'Subscribed to PostgreSQL')
    }
  }

  private leave(channel: Channel): void {
    if (this.channels.get(channel.topic) !== channel) return
    clearTimeout(channel.expiry ?? undefined)
    this.channels.delete(channel.topic)
    this.rt.hub.remove(channel)
    this.rt.presence.untrack(channel)
  }

  private broadcast(channel: Channel, message: Message): void {
    const { event, payload } = message.payload
    const allowed = !channel.policies || channel.policies.broadcast.write
    if (allowed && typeof event === 'string') {
      const inner = payload
      const body: BroadcastBody = Buffer.isBuffer(inner) ? { bytes: inner } : { json: inner }
      this.rt.hub.broadcast(channel.topic, channel.private, event, body, channel)
    }
    // As hosted, a broadcast the write policy refuses gets no reply at all, ack or not.
    if (channel.ack && allowed) this.reply(message, 'ok', {})
  }

  private presence(channel: Channel, message: Message): void {
    if (channel.policies && !channel.policies.presence.write) {
      return this.reply(message, 'error', {})
    }
    const { event, payload } = message.payload
    if (event === 'track') {
      if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
        return this.reply(message, 'error', { reason: 'Presence track payload must be a map' })
      }
      this.rt.presence.track(channel, payload as Record<string, unknown>)
    } else if (event === 'untrack') {
      this.rt.presence.untrack(channel)
    }
    this.reply(message, 'ok', {})
  }

  /** Re-authorises with a refreshed token; `sb_` keys and repeats are ignored, as hosted. */
  private async refreshToken(channel: Channel, message: Message): Promise<void> {
    const token = message.payload.access_token
    if (typeof token !== 'string' || token.startsWith('sb_') || token === channel.token) return
    const auth = await confirmToken(this.rt.ctx.callers, token)
    if (!auth.ok) return this.shutdown(channel, auth.reason.replace(/^[A-Za-z]+: /, ''))
    channel.token = token
    channel.role = auth.role
    channel.claims = auth.claims
    this.expireAt(channel)
    if (channel.private) {
      channel.policies = await channelPolicies(
        this.rt.ctx.db,
        channel.subTopic,
        auth.role,
        auth.claims,
      )
    }
  }

  /** Ends a channel from the server side, as Realtime's shutdown_response does. */
  private shutdown(channel: Channel, reason: string): void {
    this.system(channel, 'system', 'error', reason)
    this.leave(channel)
    const { topic, joinRef } = channel
    this.push({ joinRef, ref: joinRef, topic, event: 'phx_close', payload: {} })
  }

  /** Closes the channel when its token expires, unless a fresh token arrives first. */
  private expireAt(channel: Channel): void {
    clearTimeout(channel.expiry ?? undefined)
    const exp = channel.claims.exp
    if (typeof exp !== 'number') return
    const left = exp * 1000 - Date.now()
    // Timers cap at about 24 days; longer-lived tokens are simply checked again then.
    channel.expiry = setTimeout(
      () =>
        left > MAX_TIMER_MS
          ? this.expireAt(channel)
          : this.shutdown(channel, 'Token has expired 0 seconds ago'),
      Math.min(left, MAX_TIMER_MS),
    )
    channel.expiry.unref()
  }
}

/** A binding's id: an integer hash of its params, like Realtime's :erlang.phash2(params). */
function bindingId(params: Record<string, unknown>): number {
  let hash = 0x811c9dc5
  const text = JSON.stringify(params, Object.keys(params).sort())
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0) % 2 ** 27
}

function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Buffer.isBuffer(data)) return data
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)
}
