import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { memberKeys } from './keys'

/** Removes a member; with one's own id, leaves the workspace. */
export async function removeMember({
  workspaceId,
  userId,
}: {
  workspaceId: string
  userId: string
}) {
  const { data, error } = await supabase
    .from('workspace_members')
    .delete()
    .eq('workspace_id', workspaceId)
    .eq('user_id', userId)
    .select('user_id')
  if (error) throw error
  if (data.length === 0) throw new Error('Only an owner can remove other members.')
}

/**
 * Failures are toasted when `failure` names them (the members list); leaving shows them in its
 * own dialog.
 */
export function useRemoveMember(
  workspaceId: string,
  { onSuccess, failure }: { onSuccess?: (userId: string) => void; failure?: string } = {},
) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (userId: string) => removeMember({ workspaceId, userId }),
    meta: { failure },
    onSuccess: async (_data, userId) => {
      await queryClient.invalidateQueries({ queryKey: memberKeys.members(workspaceId) })
      onSuccess?.(userId)
    },
  })
}
