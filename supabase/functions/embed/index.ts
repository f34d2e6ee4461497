// Embeds the chunks lacking a vector for the workspace's embedding model (the pending one
// while a new model is being built): POST { document_id } or { workspace_id } with an
// editor's or owner's JWT → { embedded, remaining }. Idempotent and resumable: each call
// does a few seconds of batches and says how many chunks remain, so the caller calls again
// until none do. When a pending model's vectors are complete the model is promoted at once,
// and its vectors are moved into place a few per transaction (this call and the next ones):
// `embedded` counts the vectors made and those moved.
import { createClient } from 'npm:@supabase/supabase-js@2.119.1'
import { providerErrorMessage } from '../_shared/ai/errors.ts'
import { corsHeaders, fail, reply } from '../_shared/http.ts'
import { DatabaseError, embedPending } from './batches.ts'
import { readInput } from './input.ts'

const url = Deno.env.get('SUPABASE_URL')!
const anonKey = Deno.env.get('SUPABASE_ANON_KEY')!
const serviceKey = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!
const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }
const admin = createClient(url, serviceKey, { auth: noSession })

/** Calls per user per minute: generous for a browser or an import driving the loop. */
const maxPerMinute = 300

type Access =
  | { status: 'unauthenticated' | 'not_found' | 'forbidden' }
  | { status: 'rate_limited'; retry_after: number }
  | { status: 'no_model'; workspace_id: string }
  | { status: 'ok'; workspace_id: string; model: string; staging: boolean }

Deno.serve(async (req) => {
  if (req.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders })
  if (req.method !== 'POST') return fail(405, 'method_not_allowed', 'Use POST')
  const read = await readInput(req)
  if ('problem' in read) return fail(400, 'invalid_input', read.problem)
  const { document_id: documentId = null, workspace_id: workspaceId = null } = read.input

  const caller = createClient(url, anonKey, {
    auth: noSession,
    global: { headers: { Authorization: req.headers.get('Authorization')! } },
  })
  const scope = await caller.rpc('embed_scope', {
    workspace_id: workspaceId,
    document_id: documentId,
    max_per_minute: maxPerMinute,
  })
  if (scope.error) {
    return fail(502, 'embed_failed', `Could not check your access: ${scope.error.message}`)
  }
  const access = scope.data as Access
  switch (access.status) {
    case 'unauthenticated':
      return fail(401, 'not_signed_in', 'Sign in to embed documents')
    case 'not_found':
      return fail(404, 'document_not_found', 'No such document')
    case 'forbidden':
      return fail(403, 'not_editor', 'Only editors and owners of the workspace can embed')
    case 'rate_limited':
      return fail(429, 'rate_limited', `Too many embed calls: try again in ${access.retry_after} s`)
    case 'no_model':
      return fail(
        400,
        'no_embedding_model',
        'The workspace has no embedding model: choose one in Settings',
      )
  }

  try {
    return reply(
      await embedPending(admin, {
        workspaceId: access.workspace_id,
        documentId,
        model: access.model,
        staging: access.staging,
      }),
    )
  } catch (error) {
    if (error instanceof DatabaseError) {
      return fail(502, 'embed_failed', `Could not store the embeddings: ${error.message}`)
    }
    const problem = providerErrorMessage(error)
    return fail(problem.status, problem.code, problem.message)
  }
})
