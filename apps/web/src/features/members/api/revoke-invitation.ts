import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { supabase } from '@/lib/supabase'
import { memberKeys } from './keys'

export async function revokeInvitation(invitationId: string) {
  const { error } = await supabase.from('workspace_invitations').delete().eq('id', invitationId)
  if (error) throw error
}

export function useRevokeInvitation(workspaceId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: revokeInvitation,
    onSuccess: () => {
      toast.success('Invitation revoked')
      return queryClient.invalidateQueries({ queryKey: memberKeys.invitations(workspaceId) })
    },
    meta: { failure: 'Could not revoke the invitation' },
  })
}
