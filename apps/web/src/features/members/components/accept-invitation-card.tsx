import { useEffect, useRef } from 'react'
import { Button } from '@/components/ui/button'
import { FormError } from '@/components/layout/form-error'
import { errorMessage } from '@/lib/errors'
import { useAcceptInvitation } from '../api/accept-invitation'
import type { InvitationPreview } from '../api/get-invitation'

type AcceptInvitationCardProps = {
  token: string
  invitation: InvitationPreview
  signedInEmail: string
  onAccepted: (workspaceId: string) => void
  onSwitchAccount: () => void
  /** Join at once, without the click: the person just set up their account to do so. */
  autoJoin?: boolean
}

/** Shown to a signed-in person holding a valid invitation link. */
export function AcceptInvitationCard({
  token,
  invitation,
  signedInEmail,
  onAccepted,
  onSwitchAccount,
  autoJoin = false,
}: AcceptInvitationCardProps) {
  const accept = useAcceptInvitation()
  const sameEmail = signedInEmail.toLowerCase() === invitation.email.toLowerCase()
  const join = () => accept.mutate(token, { onSuccess: onAccepted })
  // Once only, even when React runs effects twice; a failure leaves the button to retry.
  const joined = useRef(false)
  useEffect(() => {
    if (!autoJoin || !sameEmail || joined.current) return
    joined.current = true
    join()
  })
  return (
    <div className="grid gap-4 text-sm">
      <FormError message={accept.error ? errorMessage(accept.error) : null} />
      {sameEmail ? (
        <Button className="w-full" disabled={accept.isPending} onClick={join}>
          {accept.isPending ? 'Joining…' : `Join ${invitation.workspace_name}`}
        </Button>
      ) : (
        <>
          <p>
            This invitation is for <strong>{invitation.email}</strong>, but you are signed in as{' '}
            <strong>{signedInEmail}</strong>.
          </p>
          <Button className="w-full" variant="outline" onClick={onSwitchAccount}>
            Sign in as {invitation.email}
          </Button>
        </>
      )}
    </div>
  )
}
