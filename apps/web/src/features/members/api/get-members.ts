import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import type { MemberRole } from '../utils/roles'
import { memberKeys } from './keys'

export type Member = {
  userId: string
  role: MemberRole
  joinedAt: string
  name: string
  email: string | null
  color: string
}

const rank: Record<MemberRole, number> = { owner: 0, editor: 1, viewer: 2 }

export async function getMembers(workspaceId: string, signal: AbortSignal): Promise<Member[]> {
  const { data, error } = await supabase
    .from('workspace_members')
    .select('user_id, role, created_at, profile:profiles(display_name, email, avatar_color)')
    .eq('workspace_id', workspaceId)
    .abortSignal(signal)
  if (error) throw error
  return data
    .map((row) => ({
      userId: row.user_id,
      role: row.role as MemberRole,
      joinedAt: row.created_at,
      name: row.profile?.display_name ?? 'Member',
      email: row.profile?.email ?? null,
      color: row.profile?.avatar_color ?? '#71717a',
    }))
    .sort((a, b) => rank[a.role] - rank[b.role] || a.name.localeCompare(b.name))
}

export const getMembersQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: memberKeys.members(workspaceId),
    queryFn: ({ signal }) => getMembers(workspaceId, signal),
  })

export function useMembers(workspaceId: string) {
  return useQuery(getMembersQueryOptions(workspaceId))
}
