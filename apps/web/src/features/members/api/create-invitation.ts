import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import { roles } from '../utils/roles'
import { memberKeys } from './keys'
import { mailFailure } from './send-invitation'

export const invitationSchema = z.object({
  email: z.email('Enter a valid email address').trim().toLowerCase(),
  role: z.enum(roles),
})

export type InvitationInput = z.infer<typeof invitationSchema>

export async function createInvitation({
  workspaceId,
  ...input
}: InvitationInput & { workspaceId: string }) {
  const { data, error } = await supabase
    .from('workspace_invitations')
    .insert({ workspace_id: workspaceId, ...input })
    .select('id, email, role, expires_at')
    .single()
  if (error) {
    if (error.code === '23505') throw new Error(`${input.email} already has a pending invitation.`)
    throw error
  }
  // The link's token is written with the invitation, in a table only owners read: a
  // second query, since an insert's own statement cannot see what its trigger wrote.
  const secret = await supabase
    .from('workspace_invitation_tokens')
    .select('token')
    .eq('invitation_id', data.id)
    .single()
  if (secret.error) throw secret.error
  return { ...data, token: secret.data.token, mailError: await mailFailure(data.id) }
}

export function useCreateInvitation(workspaceId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: InvitationInput) => createInvitation({ workspaceId, ...input }),
    onSuccess: (invitation) => {
      if (invitation.mailError) {
        toast.error(`The invitation mail could not be sent: ${invitation.mailError}`)
      }
      return queryClient.invalidateQueries({ queryKey: memberKeys.invitations(workspaceId) })
    },
  })
}
