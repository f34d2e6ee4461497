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
import { embedQueryWith, queryModelHeader } from '../_shared/ai/query.ts'
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
  /** `vector`: the query's, with the model that made it (see queryModelHeader). */
  const search = (vector: { embedding: number[]; model: string } | null, count: number) => {
    const common = {
      workspace_id: workspaceId,
      query,
      match_count: count,
      types: types ?? null,
      query_embedding: vector === null ? null : JSON.stringify(vector.embedding),
    }
    // Kept to one document, its passages are ranked by that document's own statistics
    // (20260101005300_search_one_document.sql): the workspace's say little inside one filing.
    const rpc =
      documentIds?.length === 1
        ? api.rpc('search_document', { ...common, document: documentIds[0]! })
        : api.rpc('search_chunks', { ...common, document_ids: documentIds ?? null })
    const asCaller = rpc.setHeader('Authorization', authorization)
    return vector === null ? asCaller : asCaller.setHeader(queryModelHeader, vector.model)
  }
  // Membership, the workspace's settings and the lexical search in one call as the caller
  // (20260101007200_search_with_settings.sql): RLS shows the workspace to its members only (a
  // non-member's query is never embedded), and without a model the lexical search is the
  // answer, so most searches are one request to the database (with one, `results` is null:
  // the search below uses the query's vector, or is lexical when embedding fails). The
  // query is embedded with the ACTIVE model, the one chunks.embedding holds (a pending
  // model's vectors are not searchable until promoted); the search says which, so that a
  // promotion meanwhile makes it lexical rather than compare vectors of two models.
  const first = await api
    .rpc('search_with_settings', {
      workspace_id: workspaceId,
      query,
      match_count: limit,
      document_ids: documentIds,
      types: types ?? null,
    })
    .setHeader('Authorization', authorization)
  if (sessionExpired(first.error)) return signInAgain()
  // An anonymous key may not search: it is no member either.
  if (first.error?.code === '42501' || (!first.error && !first.data)) {
    return fail(403, 'not_member', 'Only members of the workspace can search it')
  }
  if (first.error) return fail(502, 'search_failed', `Could not search: ${first.error.message}`)
  const workspace = first.data as Settings & {
    embedding_model: string | null
    results: Row[] | null
  }
  const embedding = await embedQueryWith(workspace.embedding_model, query)
  const vector = embedding && { embedding, model: workspace.embedding_model! }
  // Reranking chooses among more passages than are shown: then the search runs again, deeper.
  const reranker = searchReranker(read.input.rerank, workspace)
  const depth = candidates(limit, reranker)
  const { data, error } =
    workspace.results && embedding === null && depth === limit
      ? { data: workspace.results, error: null }
      : await search(vector, depth)
  if (error) return fail(502, 'search_failed', `Could not search: ${error.message}`)
  const found = data as Row[]
  const { rows: results, reranked } = reranker
    ? await rerankRows(api, authorization, reranker, query, found, limit)
    : { rows: found, reranked: false }
  return reply({ results, reranked })
})
