import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.119.1'
import type { Citation } from '../_shared/core/chat/types.ts'
import type { Usage } from './generate.ts'
import type { Turn } from './turn.ts'

export type Ids = { userMessageId: string; assistantMessageId: string }

export type StoredMessage = {
  id: string
  conversation_id: string
  role: 'assistant'
  content: string
  citations: Citation[]
  status: 'streaming' | 'complete' | 'stopped' | 'failed'
  error: string | null
  model: string | null
  usage: Usage | null
  extractive: boolean
  created_at: string
}

// Messages are written only here, with the service role: users cannot insert or edit them.

/**
 * The question (unless regenerating, which keeps it and drops the old answer) and the answer
 * row with status 'streaming', so every member sees a turn in progress.
 */
export async function beginTurn(
  admin: SupabaseClient,
  turn: Turn,
  ids: Ids,
  meta: { model: string | null; extractive: boolean },
): Promise<void> {
  const answer = {
    id: ids.assistantMessageId,
    conversation_id: turn.conversationId,
    role: 'assistant',
    status: 'streaming',
    ...meta,
  }
  if (turn.regenerate) {
    const removed = await admin.from('messages').delete().eq('id', turn.regenerate.answerId)
    if (removed.error) throw new Error(`Could not replace the answer: ${removed.error.message}`)
    const { error } = await admin
      .from('messages')
      .insert({ ...answer, created_at: new Date().toISOString() })
    if (error) throw new Error(`Could not store the answer: ${error.message}`)
    return
  }
  // Messages are ordered by created_at, stamped here by one clock: the database's may not
  // tell apart two rows of one statement (PGlite ticks in milliseconds).
  const now = Date.now()
  const question = {
    id: ids.userMessageId,
    conversation_id: turn.conversationId,
    role: 'user',
    content: turn.question,
    created_by: turn.userId,
    created_at: new Date(now).toISOString(),
  }
  // Columns one row leaves out take their defaults, not null.
  const { error } = await admin
    .from('messages')
    .insert([question, { ...answer, created_at: new Date(now + 1).toISOString() }], {
      defaultToNull: false,
    })
  if (error) throw new Error(`Could not store the question: ${error.message}`)
}

/** The answer's final state; returns the stored row. */
export async function finishTurn(
  admin: SupabaseClient,
  id: string,
  outcome: Pick<StoredMessage, 'content' | 'citations' | 'status' | 'error' | 'usage'>,
): Promise<StoredMessage> {
  const { data, error } = await admin
    .from('messages')
    .update(outcome)
    .eq('id', id)
    .select(
      'id, conversation_id, role, content, citations, status, error, model, usage, extractive, created_at',
    )
    .single()
  if (error) throw new Error(`Could not store the answer: ${error.message}`)
  return data as StoredMessage
}

/** Longer than any function may run (hosted: 400 s wall clock), so an answer still streaming is dead. */
const ABANDONED_AFTER_MS = 10 * 60 * 1000

/**
 * Answers left 'streaming' by a function that was stopped mid-answer (a deploy, a crash)
 * would show as in progress for ever: each new turn marks its conversation's old ones failed.
 */
export async function failAbandoned(admin: SupabaseClient, conversationId: string): Promise<void> {
  const { error } = await admin
    .from('messages')
    .update({ status: 'failed', error: 'The answer was interrupted before it finished.' })
    .eq('conversation_id', conversationId)
    .eq('status', 'streaming')
    .lt('created_at', new Date(Date.now() - ABANDONED_AFTER_MS).toISOString())
  if (error) console.warn(`chat: could not close abandoned answers: ${error.message}`)
}
