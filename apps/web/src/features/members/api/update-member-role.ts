import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { supabase } from '@/lib/supabase'
import type { MemberRole } from '../utils/roles'
import { memberKeys } from './keys'

type RoleChange = { workspaceId: string; userId: string; role: MemberRole }

export async function updateMemberRole({ workspaceId, userId, role }: RoleChange) {
  const { data, error } = await supabase
    .from('workspace_members')
    .update({ role })
    .eq('workspace_id', workspaceId)
    .eq('user_id', userId)
    .select('role')
  if (error) throw error
  if (data.length === 0) throw new Error('Only an owner can change roles.')
}

export function useUpdateMemberRole(workspaceId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (change: Omit<RoleChange, 'workspaceId'>) =>
      updateMemberRole({ workspaceId, ...change }),
    onSuccess: () => {
      toast.success('Role changed')
      return queryClient.invalidateQueries({ queryKey: memberKeys.members(workspaceId) })
    },
    meta: { failure: 'Could not change the role' },
  })
}
