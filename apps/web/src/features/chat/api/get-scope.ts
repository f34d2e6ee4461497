import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { chatKeys } from './keys'
import type { Conversation } from './types'

export type ScopeItem = { kind: 'document' | 'collection'; id: string; name: string }

/**
 * What a conversation keeps to, by name: its collections, then its documents, each in the
 * order chosen. Null for the whole workspace; an empty list when everything it named is gone.
 */
export async function getScope(
  conversation: Conversation,
  signal: AbortSignal,
): Promise<ScopeItem[] | null> {
  const documentIds = conversation.document_ids ?? []
  const collectionIds = conversation.collection_ids ?? []
  if (conversation.document_ids === null && conversation.collection_ids === null) return null
  const [documents, collections] = await Promise.all([
    documentIds.length
      ? supabase.from('documents').select('id, title').in('id', documentIds).abortSignal(signal)
      : { data: [], error: null },
    collectionIds.length
      ? supabase.from('collections').select('id, name').in('id', collectionIds).abortSignal(signal)
      : { data: [], error: null },
  ])
  if (documents.error) throw documents.error
  if (collections.error) throw collections.error
  const titles = new Map(documents.data.map((d) => [d.id, d.title]))
  const names = new Map(collections.data.map((c) => [c.id, c.name]))
  return [
    ...collectionIds.flatMap((id) => {
      const name = names.get(id)
      return name === undefined ? [] : [{ kind: 'collection' as const, id, name }]
    }),
    ...documentIds.flatMap((id) => {
      const name = titles.get(id)
      return name === undefined ? [] : [{ kind: 'document' as const, id, name }]
    }),
  ]
}

export const getScopeQueryOptions = (conversation: Conversation) =>
  queryOptions({
    queryKey: chatKeys.scope(conversation.workspace_id, conversation.id, [
      ...(conversation.collection_ids ?? ['-']),
      ...(conversation.document_ids ?? ['-']),
    ]),
    queryFn: ({ signal }) => getScope(conversation, signal),
    // A chip taken away leaves the others in place while the names are read again.
    placeholderData: keepPreviousData,
  })

export function useScope(conversation: Conversation) {
  return useQuery(getScopeQueryOptions(conversation))
}
