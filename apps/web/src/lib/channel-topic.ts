// supabase-js hands back the existing channel of a topic until the server confirms that
// channel's leave, and joining a leaving channel does nothing: remounting before that reply
// (leaving a page and coming straight back) would listen on a dead channel. A topic of its own
// per mount never meets the one still leaving. (Private channels cannot do this: their topic
// is what their RLS policies check.)
let mounts = 0

/** A realtime topic for one mount of a postgres_changes subscription. */
export function channelTopic(base: string): string {
  mounts += 1
  return `${base}:${mounts}`
}
