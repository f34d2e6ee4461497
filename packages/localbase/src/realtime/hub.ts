import type { Claims, Policies } from './auth.ts'
import { type BroadcastBody, encodeFrame, encodeUserBroadcast, type Vsn } from './frames.ts'
import type { Subscription } from './filters.ts'

/** One socket as the hub sees it: where to write, and in which serializer. */
export type Peer = { vsn: Vsn; send(data: string | Buffer): void }

/** One joined channel on one socket. */
export type Channel = {
  peer: Peer
  topic: string
  subTopic: string
  joinRef: string | null
  self: boolean
  ack: boolean
  presenceKey: string
  presenceEnabled: boolean
  private: boolean
  /** RLS verdicts on realtime.messages for private channels; null on public ones. */
  policies: Policies | null
  role: string
  claims: Claims
  token: string
  bindings: { id: number; subscription: Subscription }[]
  /** Closes the channel when its token expires. */
  expiry: NodeJS.Timeout | null
}

/** Who is on which topic; fans messages out to them. */
export class Hub {
  private readonly topics = new Map<string, Set<Channel>>()
  /** Channels with postgres_changes bindings, for the change feed. */
  readonly listening = new Set<Channel>()

  add(channel: Channel): void {
    const key = hubKey(channel.topic, channel.private)
    let members = this.topics.get(key)
    if (!members) this.topics.set(key, (members = new Set()))
    members.add(channel)
    if (channel.bindings.length) this.listening.add(channel)
  }

  remove(channel: Channel): void {
    const key = hubKey(channel.topic, channel.private)
    const members = this.topics.get(key)
    members?.delete(channel)
    if (members?.size === 0) this.topics.delete(key)
    this.listening.delete(channel)
  }

  /** Public and private channels of the same name are separate audiences, as hosted. */
  members(topic: string, isPrivate: boolean): Iterable<Channel> {
    return this.topics.get(hubKey(topic, isPrivate)) ?? []
  }

  /** A user broadcast to everyone on the topic allowed to read it; the sender only if `self`. */
  broadcast(
    topic: string,
    isPrivate: boolean,
    event: string,
    body: BroadcastBody,
    sender: Channel | null,
  ): void {
    const encoded = new Map<Vsn, string | Buffer | null>()
    for (const member of this.members(topic, isPrivate)) {
      if (member === sender && !member.self) continue
      if (member.policies && !member.policies.broadcast.read) continue
      if (!encoded.has(member.peer.vsn))
        encoded.set(member.peer.vsn, encodeUserBroadcast(topic, event, body, member.peer.vsn))
      const frame = encoded.get(member.peer.vsn)
      if (frame) member.peer.send(frame)
    }
  }

  /** A presence push to every member of the topic allowed to read presence. */
  pushPresence(
    topic: string,
    isPrivate: boolean,
    event: string,
    payload: Record<string, unknown>,
  ): void {
    for (const member of this.members(topic, isPrivate)) {
      if (member.policies && !member.policies.presence.read) continue
      member.peer.send(
        encodeFrame({ joinRef: null, ref: null, topic, event, payload }, member.peer.vsn),
      )
    }
  }
}

function hubKey(topic: string, isPrivate: boolean): string {
  return `${isPrivate ? 'private' : 'public'}:${topic}`
}
