import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { supabase } from '@/lib/supabase'
import { memberKeys } from './keys'
import { mailFailure } from './send-invitation'

/** A fresh token and seven more days; the old link stops working. */
export async function resendInvitation(invitationId: string) {
  const { data, error } = await supabase.rpc('resend_invitation', { invitation_id: invitationId })
  if (error) throw error
  const invitation = data[0]
  if (!invitation) throw new Error('This invitation no longer exists.')
  return { ...invitation, mailError: await mailFailure(invitation.id) }
}

export function useResendInvitation(workspaceId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: resendInvitation,
    onSuccess: (invitation) => {
      if (invitation.mailError) {
        toast.error(
          `New invitation link ready, but the mail could not be sent: ${invitation.mailError}. Copy the link and send it on.`,
        )
      } else {
        toast.success(`Invitation sent again to ${invitation.email}`)
      }
      return queryClient.invalidateQueries({ queryKey: memberKeys.invitations(workspaceId) })
    },
    meta: { failure: 'Could not resend the invitation' },
  })
}
