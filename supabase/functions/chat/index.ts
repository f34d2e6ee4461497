// Answers a question in a conversation: POST { conversation_id, content, regenerate? } with a
// member's JWT or an access token of the conversation's workspace (_shared/caller.ts) →
// text/event-stream of meta, sources, delta…, done | error. In order: validate
// → authenticate, check access, rate limit and load history (one call as the caller) →
// rewrite a follow-up → retrieve as the caller → answer from fenced sources (or, offline,
// extract one) → store with checked citations. Errors before the stream starts are JSON.
import { createClient } from 'npm:@supabase/supabase-js@2.119.1'
import { callerOf, foreignWorkspace } from '../_shared/caller.ts'
import { corsHeaders, fail } from '../_shared/http.ts'
import { runTurn } from './answer.ts'
import { readInput } from './input.ts'
import { eventStream } from './sse.ts'
import { openTurn } from './turn.ts'

const url = Deno.env.get('SUPABASE_URL')!
const anonKey = Deno.env.get('SUPABASE_ANON_KEY')!
const serviceKey = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!
const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }
const admin = createClient(url, serviceKey, { auth: noSession })

Deno.serve(async (req) => {
  const started = performance.now()
  if (req.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders })
  if (req.method !== 'POST') return fail(405, 'method_not_allowed', 'Use POST')
  const read = await readInput(req)
  if ('problem' in read) return fail(400, 'invalid_input', read.problem)
  const identity = await callerOf(req)
  if (identity instanceof Response) return identity

  const caller = createClient(url, anonKey, {
    auth: noSession,
    global: { headers: { Authorization: identity.authorization } },
  })
  const turn = await openTurn(caller, read.input)
  if (turn instanceof Response) return turn
  if (identity.grant && identity.grant.workspaceId !== turn.workspaceId) return foreignWorkspace()
  const timings = { auth_ms: Math.round(performance.now() - started) }

  // The client going away (Stop) cancels the response body: that is the signal to stop.
  const stop = new AbortController()
  const { response, sink } = eventStream(() => stop.abort())
  // The stream stays open until the turn is stored, so the work outlives no response.
  runTurn({ caller, admin }, turn, sink, stop.signal, { started, timings }).catch((error) => {
    console.error('chat: the turn failed unexpectedly', error)
    sink.send('error', {
      code: 'chat_failed',
      message: 'The answer failed unexpectedly. Try again.',
    })
    sink.close()
  })
  return response
})
