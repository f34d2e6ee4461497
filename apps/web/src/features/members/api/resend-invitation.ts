import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { errorMessage } from '@/lib/errors'
import { supabase } from '@/lib/supabase'
import { memberKeys } from './keys'
import { sendInvitationMail } from './send-invitation-mail'

/** A fresh token and seven more days; the old link stops working. */
export async function resendInvitation(invitationId: string) {
  const { data, error } = await supabase.rpc('resend_invitation', { invitation_id: invitationId })
  if (error) throw error
  const invitation = data[0]
  if (!invitation) throw new Error('This invitation no longer exists.')
  const mailed = await sendInvitationMail(invitation.email, invitation.token)
  return { ...invitation, mailed }
}

export function useResendInvitation(workspaceId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: resendInvitation,
    onSuccess: (invitation) => {
      toast.success(
        invitation.mailed
          ? `Invitation sent again to ${invitation.email}`
          : 'New invitation link ready: copy it and send it on',
      )
      return queryClient.invalidateQueries({ queryKey: memberKeys.invitations(workspaceId) })
    },
    onError: (error) => toast.error(`Could not resend the invitation: ${errorMessage(error)}`),
  })
}
