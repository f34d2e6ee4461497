import type { Citation, Message } from '../api/types'

/** An answer as it streams in: this person's own request, or a teammate's seen on the channel. */
export type LiveAnswer = {
  /** The assistant row being written, once the stream has named it. */
  messageId: string | null
  userMessageId: string | null
  /** The question as typed (own requests), shown until its stored row arrives. */
  question: string | null
  text: string
  sources: Citation[]
  extractive: boolean
  /** The answer being regenerated, hidden while its replacement streams. */
  replacing: string | null
  error: string | null
  /** Stopped by the person who asked: shown as stopped until the stored rows say more. */
  stopped: boolean
}

const pending = (fields: Partial<Message> & Pick<Message, 'id' | 'role'>): Message => ({
  conversation_id: '',
  content: '',
  citations: [],
  status: 'streaming',
  error: null,
  model: null,
  extractive: false,
  created_by: null,
  created_at: new Date().toISOString(),
  feedback: null,
  ...fields,
})

/**
 * The messages to show: the stored rows, with the live text laid over the row it is writing
 * while that row is still `streaming`, and the question and answer that have no row yet.
 */
export function withLiveAnswer(stored: Message[], live: LiveAnswer | null): Message[] {
  if (!live) return stored
  const shown = stored
    .filter((message) => message.id !== live.replacing)
    .map((message): Message =>
      message.id === live.messageId && message.status === 'streaming'
        ? {
            ...message,
            content: live.text,
            citations: live.sources,
            extractive: live.extractive,
            status: live.stopped ? 'stopped' : message.status,
          }
        : message,
    )
  const ids = new Set(shown.map((message) => message.id))
  // Stopped before the stream named its rows: once the stored turn ends with this question,
  // it is the one the function wrote.
  const lastQuestion = shown.findLast((message) => message.role === 'user')
  if (live.stopped && !live.userMessageId && lastQuestion?.content === live.question) {
    return stored
  }
  if (live.question !== null && !(live.userMessageId && ids.has(live.userMessageId))) {
    shown.push(
      pending({
        id: live.userMessageId ?? 'pending-question',
        role: 'user',
        content: live.question,
        status: 'complete',
      }),
    )
  }
  if (!(live.messageId && ids.has(live.messageId))) {
    shown.push(
      pending({
        id: live.messageId ?? 'pending-answer',
        role: 'assistant',
        content: live.text,
        citations: live.sources,
        extractive: live.extractive,
        status: live.error ? 'failed' : live.stopped ? 'stopped' : 'streaming',
        error: live.error,
      }),
    )
  }
  return shown
}
