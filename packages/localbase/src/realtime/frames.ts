// Phoenix frames in both serializers (docs §4.1, trap §10.2.1): vsn 1.0.0 JSON objects,
// vsn 2.0.0 JSON arrays plus binary user broadcasts (client→server kind 3, server→client kind 4).

export type Vsn = '1.0.0' | '2.0.0'

export type Message = {
  joinRef: string | null
  ref: string | null
  topic: string
  event: string
  payload: Record<string, unknown>
}

/** A user broadcast's body: JSON, or raw bytes (only v2 sockets can carry those). */
export type BroadcastBody = { json: unknown } | { bytes: Buffer }

const USER_BROADCAST_PUSH = 3
const USER_BROADCAST = 4
const BINARY_ENCODING = 0
const JSON_ENCODING = 1

export function parseVsn(value: string | null): Vsn | null {
  if (value === null || value === '2.0.0') return '2.0.0'
  return value === '1.0.0' ? '1.0.0' : null
}

/** Decodes one client frame, or returns null when it is not a well-formed Phoenix message. */
export function decodeFrame(data: Buffer, isBinary: boolean, vsn: Vsn): Message | null {
  try {
    if (isBinary) return vsn === '2.0.0' ? decodeUserBroadcastPush(data) : null
    const raw: unknown = JSON.parse(data.toString('utf8'))
    const [joinRef, ref, topic, event, payload] = Array.isArray(raw)
      ? raw
      : vsn === '1.0.0' && raw && typeof raw === 'object'
        ? [
            (raw as Record<string, unknown>).join_ref,
            (raw as Record<string, unknown>).ref,
            (raw as Record<string, unknown>).topic,
            (raw as Record<string, unknown>).event,
            (raw as Record<string, unknown>).payload,
          ]
        : []
    if (typeof topic !== 'string' || typeof event !== 'string') return null
    return {
      joinRef: typeof joinRef === 'string' ? joinRef : null,
      ref: typeof ref === 'string' ? ref : null,
      topic,
      event,
      payload: payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {},
    }
  } catch {
    return null
  }
}

// kind | joinRefLen | refLen | topicLen | eventLen | metaLen | encoding | joinRef | ref | topic | event | meta | payload
function decodeUserBroadcastPush(data: Buffer): Message | null {
  if (data.length < 7 || data[0] !== USER_BROADCAST_PUSH) return null
  const lengths = [data[1]!, data[2]!, data[3]!, data[4]!, data[5]!]
  const encoding = data[6]
  const parts: string[] = []
  let offset = 7
  for (const length of lengths) {
    if (offset + length > data.length) return null
    parts.push(data.toString('utf8', offset, offset + length))
    offset += length
  }
  const [joinRef, ref, topic, event, meta] = parts as [string, string, string, string, string]
  const rest = data.subarray(offset)
  const payload = encoding === JSON_ENCODING ? JSON.parse(rest.toString('utf8')) : Buffer.from(rest)
  return {
    joinRef: joinRef || null,
    ref: ref || null,
    topic,
    event: 'broadcast',
    payload: { type: 'broadcast', event, payload, ...(meta ? { meta: JSON.parse(meta) } : {}) },
  }
}

export function encodeFrame(message: Message, vsn: Vsn): string {
  const { joinRef, ref, topic, event, payload } = message
  return vsn === '1.0.0'
    ? JSON.stringify({ join_ref: joinRef, ref, topic, event, payload })
    : JSON.stringify([joinRef, ref, topic, event, payload])
}

/**
 * A user broadcast as the server sends it: kind 4 on v2 sockets, a JSON broadcast on v1
 * (null when v1 cannot carry it, i.e. binary bodies, which hosted Realtime also drops).
 */
export function encodeUserBroadcast(
  topic: string,
  event: string,
  body: BroadcastBody,
  vsn: Vsn,
): string | Buffer | null {
  if (vsn === '1.0.0') {
    if ('bytes' in body) return null
    const payload = { type: 'broadcast', event, payload: body.json }
    return encodeFrame({ joinRef: null, ref: null, topic, event: 'broadcast', payload }, vsn)
  }
  const topicBytes = Buffer.from(topic)
  const eventBytes = Buffer.from(event)
  if (topicBytes.length > 255 || eventBytes.length > 255) {
    const payload = { type: 'broadcast', event, payload: 'json' in body ? body.json : null }
    return encodeFrame({ joinRef: null, ref: null, topic, event: 'broadcast', payload }, vsn)
  }
  const bytes = 'bytes' in body ? body.bytes : Buffer.from(JSON.stringify(body.json ?? null))
  const header = Buffer.from([
    USER_BROADCAST,
    topicBytes.length,
    eventBytes.length,
    0,
    'bytes' in body ? BINARY_ENCODING : JSON_ENCODING,
  ])
  return Buffer.concat([header, topicBytes, eventBytes, bytes])
}
