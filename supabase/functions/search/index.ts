// Searches a workspace's chunks: POST { workspace_id, query, limit?, document_ids?,
// collection_ids?, types?, rerank? } with the caller's JWT or an access token for that
// workspace (types: document kinds, see input.ts; documents and collections together: results
// from their union; rerank: see rerank.ts; tokens: _shared/caller.ts) → { results, reranked },
// each result with its document's type (as search_chunks and search_document return it).
// search_chunks (search_document for a scope of one document) is called as the caller and
// answers members only; the membership check up front turns "nothing visible" into a clear 403.
import { createClient } from 'npm:@supabase/supabase-js@2.119.1'
import { callerOf, foreignWorkspace } from '../_shared/caller.ts'
import { corsHeaders, fail, reply } from '../_shared/http.ts'
import { embedQueryWith } from '../_shared/ai/query.ts'
import { type Input, readInput } from './input.ts'
import { candidates, rerankRows, searchReranker, type Settings } from './rerank.ts'

const url = Deno.env.get('SUPABASE_URL')!
const anonKey = Deno.env.get('SUPABASE_ANON_KEY')!
const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }
// One client for the process, each query sent with the caller's JWT (setHeader copies the
// builder's headers, so requests share nothing). A client per request is a heap of objects
// per search; their collection showed as pauses of tens of ms at the latency tail.
const api = createClient(url, anonKey, { auth: noSession })

type Row = {
  chunk_id: string
  document_id: string
  title: string
  ordinal: number
  page_start: number | null
  page_end: number | null
  score: number
  bm25: number | null
  lexical_rank: number | null
  semantic_rank: number | null
  similarity: number | null
  snippet: string
  document_type: string
}

/**
 * The document filter search_chunks takes: document_ids as given, or with collections, the
 * union of those documents and the collections' (resolved as the caller, so RLS applies).
 */
async function documentFilter(
  input: Input,
  authorization: string,
): Promise<{ documentIds: string[] | null } | { error: { code: string; message: string } }> {
  if (!input.collection_ids) return { documentIds: input.document_ids ?? null }
  const { data, error } = await api
    .rpc('scope_document_ids', {
      workspace_id: input.workspace_id,
      document_ids: input.document_ids ?? [],
      collection_ids: input.collection_ids,
    })
    .setHeader('Authorization', authorization)
  if (error) return { error }
  return { documentIds: data as string[] }
}

// verify_jwt is off (access tokens are not JWTs), so a bad or expired JWT shows up as
// PostgREST's PGRST30x on whichever read as the caller comes first.
const sessionExpired = (error: { code?: string } | null) => error?.code?.startsWith('PGRST30')
const signInAgain = () =>
  fail(401, 'unauthorized', 'Sign in again: the session is missing or expired')

Deno.serve(async (req) => {
  if (req.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders })
  if (req.method !== 'POST') return fail(405, 'method_not_allowed', 'Use POST')
  const read = await readInput(req)
  if ('problem' in read) return fail(400, 'invalid_input', read.problem)
  const { workspace_id: workspaceId, query, limit, types } = read.input

  const caller = await callerOf(req)
  if (caller instanceof Response) return caller
  if (caller.grant && caller.grant.workspaceId !== workspaceId) return foreignWorkspace()
  const { authorization } = caller
  const scope = await documentFilter(read.input, authorization)
  if ('error' in scope) {
    if (sessionExpired(scope.error)) return signInAgain()
    // An anonymous key may not resolve scopes: it is no member either.
    if (scope.error.code === '42501') {
      return fail(403, 'not_member', 'Only members of the workspace can search it')
    }
    return fail(502, 'search_failed', `Could not read the collections: ${scope.error.message}`)
  }
  const documentIds = scope.documentIds
  const search = (embedding: number[] | null, count = limit) => {
    const common = {
      workspace_id: workspaceId,
      query,
      match_count: count,
      types: types ?? null,
      query_embedding: embedding === null ? null : JSON.stringify(embedding),
    }
    // Kept to one document, its passages are ranked by that document's own statistics
    // (20260101005300_search_one_document.sql): the workspace's say little inside one filing.
    const rpc =
      documentIds?.length === 1
        ? api.rpc('search_document', { ...common, document: documentIds[0]! })
        : api.rpc('search_chunks', { ...common, document_ids: documentIds ?? null })
    return rpc.setHeader('Authorization', authorization)
  }
  // Membership and the embedding model in one read as the caller: RLS shows the workspace
  // to its members only (a non-member's query is never embedded). The query is embedded
  // with the ACTIVE model, the one chunks.embedding holds (a pending model's vectors are
  // not searchable until promoted). The lexical search runs alongside that read rather
  // than after it: without a model (or when embedding fails) it is the answer, so most
  // searches wait for one round trip, not two. search_chunks answers non-members nothing.
  const [workspace, lexical] = await Promise.all([
    api
      .from('workspaces')
      .select('embedding_model, chat_model, reranking')
      .eq('id', workspaceId)
      .setHeader('Authorization', authorization)
      .maybeSingle<{ embedding_model: string | null } & Settings>(),
    search(null),
  ])
  if (sessionExpired(workspace.error)) return signInAgain()
  if (workspace.error) {
    return fail(502, 'search_failed', `Could not check your membership: ${workspace.error.message}`)
  }
  if (!workspace.data) {
    return fail(403, 'not_member', 'Only members of the workspace can search it')
  }
  const embedding = await embedQueryWith(workspace.data.embedding_model, query)
  // Reranking chooses among more passages than are shown: then the search runs again, deeper.
  const reranker = searchReranker(read.input.rerank, workspace.data)
  const depth = candidates(limit, reranker)
  const { data, error } =
    embedding === null && depth === limit ? lexical : await search(embedding, depth)
  if (error) return fail(502, 'search_failed', `Could not search: ${error.message}`)
  const found = data as Row[]
  const { rows: results, reranked } = reranker
    ? await rerankRows(api, authorization, reranker, query, found, limit)
    : { rows: found, reranked: false }
  return reply({ results, reranked })
})
