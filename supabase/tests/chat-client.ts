// A client for the chat function in tests: plain fetch, as the web app does, with the SSE
// stream parsed event by event.
import { DEFAULT_ANON_KEY } from '../../packages/localbase/src/index.ts'
import { clientFor, type Stack, type User } from './stack.ts'

export type ChatEvent = { event: string; data: Record<string, unknown> }

export type ChatReply = {
  status: number
  /** The events of a streamed answer, in order. */
  events: ChatEvent[]
  /** The JSON body of a refusal. */
  body?: Record<string, unknown>
}

export async function ask(
  stack: Stack,
  user: User | undefined,
  body: Record<string, unknown>,
  options: { signal?: AbortSignal; onEvent?: (event: ChatEvent) => void } = {},
): Promise<ChatReply> {
  const res = await fetch(`${stack.url}/functions/v1/chat`, {
    method: 'POST',
    headers: {
      apikey: DEFAULT_ANON_KEY,
      Authorization: `Bearer ${user?.jwt ?? DEFAULT_ANON_KEY}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
    signal: options.signal,
  })
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { status: res.status, events: [], body: (await res.json()) as Record<string, unknown> }
  }
  const events: ChatEvent[] = []
  const decoder = new TextDecoder()
  let buffer = ''
  try {
    for await (const bytes of res.body!) {
      buffer += decoder.decode(bytes, { stream: true })
      let end: number
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const event = /^event: (.*)$/m.exec(frame)?.[1] ?? 'message'
        const data = JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? '{}') as ChatEvent['data']
        events.push({ event, data })
        options.onEvent?.({ event, data })
      }
    }
  } catch (error) {
    if (!options.signal?.aborted) throw error
  }
  return { status: res.status, events }
}

/** The events' names in order, with runs of deltas shown once. */
export const eventNames = (events: ChatEvent[]) =>
  events.map((e) => e.event).filter((name, i, all) => name !== 'delta' || all[i - 1] !== 'delta')

export const streamedText = (events: ChatEvent[]) =>
  events
    .filter((e) => e.event === 'delta')
    .map((e) => e.data.text)
    .join('')

export async function createConversation(
  stack: Stack,
  user: User,
  workspaceId: string,
  visibility: 'private' | 'shared' = 'private',
): Promise<string> {
  const { data, error } = await clientFor(stack, user)
    .from('conversations')
    .insert({ workspace_id: workspaceId, title: 'Questions', visibility })
    .select('id')
    .single()
  if (error) throw error
  return (data as { id: string }).id
}

/** A conversation's messages as the service role sees them, oldest first. */
export async function storedMessages(stack: Stack, conversationId: string) {
  const { rows } = await stack.db.pg.query<Record<string, unknown>>(
    `select * from public.messages where conversation_id = $1 order by created_at, id`,
    [conversationId],
  )
  return rows
}
