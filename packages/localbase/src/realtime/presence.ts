import { randomBytes } from 'node:crypto'
import type { Channel, Hub } from './hub.ts'

type Meta = Record<string, unknown> & { phx_ref: string }
type Entry = { channel: Channel; key: string; meta: Meta }

/**
 * Phoenix Presence for each topic (docs §4.4, trap §10.2.21): one entry per tracking channel
 * under its presence key, metas carrying a `phx_ref`; every change goes out as presence_diff.
 */
export class Presence {
  private readonly hub: Hub
  private readonly entries = new Map<Channel, Entry>()
  constructor(hub: Hub) {
    this.hub = hub
  }

  /** presence_state for a topic: `{ key: { metas: [...] } }`. */
  state(channel: Channel): Record<string, { metas: Meta[] }> {
    const state: Record<string, { metas: Meta[] }> = {}
    for (const entry of this.entries.values()) {
      if (entry.channel.topic !== channel.topic || entry.channel.private !== channel.private)
        continue
      ;(state[entry.key] ??= { metas: [] }).metas.push(entry.meta)
    }
    return state
  }

  track(channel: Channel, payload: Record<string, unknown>): void {
    const previous = this.entries.get(channel)
    const meta: Meta = {
      ...payload,
      phx_ref: randomBytes(12).toString('base64url'),
      ...(previous ? { phx_ref_prev: previous.meta.phx_ref } : {}),
    }
    const entry = { channel, key: channel.presenceKey, meta }
    this.entries.set(channel, entry)
    this.diff(channel, [entry], previous ? [previous] : [])
  }

  untrack(channel: Channel): void {
    const previous = this.entries.get(channel)
    if (!previous) return
    this.entries.delete(channel)
    this.diff(channel, [], [previous])
  }

  private diff(channel: Channel, joins: Entry[], leaves: Entry[]): void {
    const group = (entries: Entry[]) => {
      const out: Record<string, { metas: Meta[] }> = {}
      for (const e of entries) (out[e.key] ??= { metas: [] }).metas.push(e.meta)
      return out
    }
    this.hub.pushPresence(channel.topic, channel.private, 'presence_diff', {
      joins: group(joins),
      leaves: group(leaves),
    })
  }
}
