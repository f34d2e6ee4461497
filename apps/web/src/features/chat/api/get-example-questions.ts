import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { exampleQuestions } from '../utils/example-questions'
import { chatKeys } from './keys'

/** How many documents, and how many of their first passages, the questions are drawn from. */
const DOCUMENTS = 3
const PASSAGES = 200

/**
 * Questions to start from, made from the titles and headings of the workspace's newest
 * ready documents (headings from their passages' heading paths, in reading order).
 */
export async function getExampleQuestions(
  workspaceId: string,
  signal: AbortSignal,
): Promise<string[]> {
  const documents = await supabase
    .from('documents')
    .select('id, title')
    .eq('workspace_id', workspaceId)
    .eq('status', 'ready')
    .order('updated_at', { ascending: false })
    .limit(DOCUMENTS)
    .abortSignal(signal)
  if (documents.error) throw documents.error
  if (documents.data.length === 0) return []
  const chunks = await supabase
    .from('chunks')
    .select('document_id, heading_path')
    .in(
      'document_id',
      documents.data.map((d) => d.id),
    )
    .order('ordinal')
    .limit(PASSAGES)
    .abortSignal(signal)
  if (chunks.error) throw chunks.error
  return exampleQuestions(
    documents.data.map((document) => ({
      title: document.title,
      headings: chunks.data
        .filter((chunk) => chunk.document_id === document.id)
        .flatMap((chunk) => chunk.heading_path),
    })),
  )
}

export const getExampleQuestionsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: chatKeys.examples(workspaceId),
    queryFn: ({ signal }) => getExampleQuestions(workspaceId, signal),
  })

export function useExampleQuestions(workspaceId: string) {
  return useQuery(getExampleQuestionsQueryOptions(workspaceId))
}
