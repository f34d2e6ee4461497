import { FunctionsHttpError } from '@supabase/supabase-js'
import { z } from 'zod'
import { errorMessage } from '@/lib/errors'
import { supabase } from '@/lib/supabase'

const sentSchema = z.object({ sent: z.enum(['invite', 'magiclink']), email: z.string() })

/** The function's own `{ message }` when it answered with an error status. */
async function functionError(error: unknown): Promise<Error> {
  if (error instanceof FunctionsHttpError) {
    const body = await (error.context as Response).json().catch(() => null)
    if (body && typeof body.message === 'string') return new Error(body.message)
  }
  return new Error(errorMessage(error))
}

/**
 * Mails the invitation through the send-invitation Edge Function: Auth's invitation for a
 * newcomer, a magic link for an existing account; either link lands on the invitation
 * signed in. Only the workspace's owners may send it.
 */
export async function sendInvitation(invitationId: string) {
  const { data, error } = await supabase.functions.invoke('send-invitation', {
    body: { invitation_id: invitationId, redirect_to: window.location.origin },
  })
  if (error) throw await functionError(error)
  return sentSchema.parse(data)
}

/** Sends the mail, resolving to the reason it failed (or null): the invitation stands either way. */
export const mailFailure = (invitationId: string): Promise<string | null> =>
  sendInvitation(invitationId).then(
    () => null,
    (error: unknown) => errorMessage(error),
  )
