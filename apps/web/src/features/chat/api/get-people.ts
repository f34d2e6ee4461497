import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { chatKeys } from './keys'

export type Person = { name: string; color: string }

/** The workspace's members by user id: who started a conversation, asked, or is here. */
export async function getPeople(
  workspaceId: string,
  signal: AbortSignal,
): Promise<Map<string, Person>> {
  const { data, error } = await supabase
    .from('workspace_members')
    .select('user_id, profile:profiles(display_name, avatar_color)')
    .eq('workspace_id', workspaceId)
    .abortSignal(signal)
  if (error) throw error
  return new Map(
    data.map((row) => [
      row.user_id,
      {
        name: row.profile?.display_name ?? 'Member',
        color: row.profile?.avatar_color ?? '#71717a',
      },
    ]),
  )
}

export const getPeopleQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: chatKeys.people(workspaceId),
    queryFn: ({ signal }) => getPeople(workspaceId, signal),
  })

export function usePeople(workspaceId: string) {
  return useQuery(getPeopleQueryOptions(workspaceId))
}
