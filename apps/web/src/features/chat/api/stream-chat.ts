import { z } from 'zod'
import { env } from '@/config/env'
import { monitoredFetch } from '@/lib/connection'
import { supabase } from '@/lib/supabase'
import { readSse } from '../utils/sse'
import { citationSchema } from './types'

/** A question, or `regenerate` with the id of the answer to write again. */
export type ChatRequest = { conversation_id: string; content?: string; regenerate?: string }

const eventSchemas = {
  meta: z.object({
    user_message_id: z.string().nullish(),
    assistant_message_id: z.string(),
    model: z.string().nullish(),
    extractive: z.boolean().default(false),
  }),
  sources: z.object({ sources: z.array(citationSchema) }),
  delta: z.object({ text: z.string() }),
  done: z.object({ message: z.object({ id: z.string() }).passthrough() }),
  error: z.object({ code: z.string().nullish(), message: z.string() }),
}

type Schemas = typeof eventSchemas
export type ChatEvent = {
  [K in keyof Schemas]: { type: K } & z.infer<Schemas[K]>
}[keyof Schemas]

/** A refusal before the stream started (`{ error: { code, message } }` or `{ code, message }`). */
export class ChatRequestError extends Error {
  readonly status: number
  readonly code: string
  constructor(status: number, code: string, message: string) {
    super(message)
    this.status = status
    this.code = code
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

async function refusal(response: Response): Promise<ChatRequestError> {
  const body = await response.json().catch(() => null)
  const detail = body?.error && typeof body.error === 'object' ? body.error : body
  const message =
    typeof detail?.message === 'string' ? detail.message : `The chat failed (${response.status}).`
  return new ChatRequestError(response.status, String(detail?.code ?? 'chat_failed'), message)
}

/**
 * Asks the chat function and yields its events as they stream in. Aborting `signal` stops
 * the request (the function keeps what was written as a stopped answer).
 */
export async function* streamChat(
  request: ChatRequest,
  signal: AbortSignal,
): AsyncGenerator<ChatEvent> {
  const { data } = await supabase.auth.getSession()
  const token = data.session?.access_token
  if (!token) throw new ChatRequestError(401, 'no_session', 'Sign in to continue.')
  const response = await monitoredFetch(
    `${env.SUPABASE_URL.replace(/\/$/, '')}/functions/v1/chat`,
    {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        apikey: env.SUPABASE_PUBLISHABLE_KEY,
        'Content-Type': 'application/json',
        Accept: 'text/event-stream',
      },
      body: JSON.stringify(request),
      signal,
    },
  )
  if (!response.ok || !response.body) throw await refusal(response)
  for await (const { event, data: text } of readSse(response.body)) {
    if (!(event in eventSchemas)) continue
    const type = event as keyof Schemas
    const parsed = eventSchemas[type].safeParse(parseJson(text))
    if (parsed.success) yield { type, ...parsed.data } as ChatEvent
  }
}
