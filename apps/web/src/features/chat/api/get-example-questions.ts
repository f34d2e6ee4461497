import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { exampleQuestions } from '../utils/example-questions'
import { chatKeys } from './keys'

/** Questions to start from, made from the titles of the workspace's newest ready documents. */
export async function getExampleQuestions(
  workspaceId: string,
  signal: AbortSignal,
): Promise<string[]> {
  const { data, error } = await supabase
    .from('documents')
    .select('title')
    .eq('workspace_id', workspaceId)
    .eq('status', 'ready')
    .order('updated_at', { ascending: false })
    .limit(3)
    .abortSignal(signal)
  if (error) throw error
  return exampleQuestions(data.map((document) => document.title))
}

export const getExampleQuestionsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: chatKeys.examples(workspaceId),
    queryFn: ({ signal }) => getExampleQuestions(workspaceId, signal),
  })

export function useExampleQuestions(workspaceId: string) {
  return useQuery(getExampleQuestionsQueryOptions(workspaceId))
}
