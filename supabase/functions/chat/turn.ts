import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.119.1'
import type { Turn as HistoryTurn } from '../_shared/core/chat/types.ts'
import { corsHeaders, fail } from '../_shared/http.ts'
import type { Input } from './input.ts'

/** Turns a user may start per minute; CHAT_RATE_LIMIT_PER_MINUTE overrides (benchmarks). */
const perMinute = Number(Deno.env.get('CHAT_RATE_LIMIT_PER_MINUTE')) || 10
const HISTORY = 10

/** Everything a turn needs to know before it streams. */
export type Turn = {
  conversationId: string
  workspaceId: string
  userId: string
  chatModel: string | null
  embeddingModel: string | null
  question: string
  history: HistoryTurn[]
  /** Set when regenerating: the stored question and the answer it replaces. */
  regenerate: { userMessageId: string; answerId: string } | null
}

type Context = {
  status: 'ok' | 'unauthenticated' | 'not_found' | 'bad_regenerate' | 'rate_limited'
  retry_after?: number
  user_id: string
  workspace_id: string
  chat_model: string | null
  embedding_model: string | null
  question: string | null
  user_message_id: string | null
  history: HistoryTurn[]
}

/**
 * Access, rate limit and history in one call as the caller (chat_turn): RLS decides whether
 * the conversation exists for them, so a non-member and a stranger's private conversation
 * both answer 404.
 */
export async function openTurn(caller: SupabaseClient, input: Input): Promise<Turn | Response> {
  const { data, error } = await caller.rpc('chat_turn', {
    conversation_id: input.conversation_id,
    regenerate: input.regenerate ?? null,
    max_per_minute: perMinute,
    history_limit: HISTORY,
  })
  if (error) {
    // An anonymous key may not run chat_turn (42501); a bad or expired token is PGRST30x.
    if (error.code === '42501' || error.code.startsWith('PGRST30')) {
      return fail(401, 'unauthorized', 'Sign in to chat: the session is missing or expired')
    }
    return fail(502, 'chat_failed', `Could not start the answer: ${error.message}`)
  }
  const context = data as Context
  switch (context.status) {
    case 'unauthenticated':
      return fail(401, 'unauthorized', 'Sign in to chat: the session is missing or expired')
    case 'not_found':
      return fail(404, 'not_found', 'No such conversation, or you cannot see it')
    case 'bad_regenerate':
      return fail(
        400,
        'invalid_input',
        'Only the latest answer of the conversation can be regenerated',
      )
    case 'rate_limited':
      return Response.json(
        {
          code: 'rate_limited',
          message: `You are asking too quickly: at most ${perMinute} questions a minute. Try again in ${context.retry_after} s.`,
        },
        { status: 429, headers: { ...corsHeaders, 'Retry-After': String(context.retry_after) } },
      )
  }
  return {
    conversationId: input.conversation_id,
    workspaceId: context.workspace_id,
    userId: context.user_id,
    chatModel: context.chat_model,
    embeddingModel: context.embedding_model,
    question: context.question ?? input.content!,
    history: context.history,
    regenerate:
      input.regenerate && context.user_message_id
        ? { userMessageId: context.user_message_id, answerId: input.regenerate }
        : null,
  }
}
