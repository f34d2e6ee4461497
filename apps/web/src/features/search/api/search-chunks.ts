import { FunctionsHttpError } from '@supabase/supabase-js'
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { documentTypes } from '@/lib/format'
import { supabase } from '@/lib/supabase'
import type { DocumentKind } from '../utils/kinds'
import { searchKeys } from './keys'

const resultSchema = z.object({
  chunk_id: z.string(),
  document_id: z.string(),
  title: z.string(),
  // A type this build does not know reads as pages, the commonest place.
  document_type: z.enum(documentTypes).catch('other'),
  page_start: z.number().nullable(),
  page_end: z.number().nullable(),
  score: z.number(),
  snippet: z.string(),
})
const answerSchema = z.object({ results: z.array(resultSchema) })

export type SearchResult = z.infer<typeof resultSchema>

/** The most passages one search returns; the page says "top 20" rather than a total. */
export const SEARCH_LIMIT = 20

/**
 * What a search is narrowed to: a document, a collection (with both, their union), a kind of
 * document, or nothing.
 */
export type SearchFilters = {
  documentId: string | null
  collectionId: string | null
  kind: DocumentKind | null
}

/** The function's `{ status, message }` when it answered with an error status. */
async function functionError(error: unknown): Promise<unknown> {
  if (!(error instanceof FunctionsHttpError)) return error
  const response = error.context as Response
  const body = await response.json().catch(() => null)
  const message = typeof body?.message === 'string' ? body.message : error.message
  return Object.assign(new Error(message), { status: response.status })
}

/** The workspace's passages that best match `query`, best first, through the search function. */
export async function searchChunks(
  workspaceId: string,
  query: string,
  { documentId, collectionId, kind }: SearchFilters,
  signal: AbortSignal,
): Promise<SearchResult[]> {
  const { data, error } = await supabase.functions.invoke('search', {
    body: {
      workspace_id: workspaceId,
      query,
      limit: SEARCH_LIMIT,
      ...(documentId ? { document_ids: [documentId] } : {}),
      ...(collectionId ? { collection_ids: [collectionId] } : {}),
      ...(kind ? { types: [kind] } : {}),
    },
    signal,
  })
  if (error) throw await functionError(error)
  return answerSchema.parse(data).results
}

export const searchChunksQueryOptions = (
  workspaceId: string,
  query: string,
  filters: SearchFilters,
) =>
  queryOptions({
    queryKey: searchKeys.results(workspaceId, query, filters),
    // TanStack Query aborts the signal when the key changes, so a stale search is cancelled.
    queryFn: ({ signal }) => searchChunks(workspaceId, query, filters, signal),
    enabled: query.trim() !== '',
    // The last results stay on screen while the next keystroke's search runs.
    placeholderData: keepPreviousData,
  })

export function useSearchChunks(workspaceId: string, query: string, filters: SearchFilters) {
  return useQuery(searchChunksQueryOptions(workspaceId, query, filters))
}
