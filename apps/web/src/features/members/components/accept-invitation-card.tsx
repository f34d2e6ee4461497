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
}

/** Shown to a signed-in person holding a valid invitation link. */
export function AcceptInvitationCard({
  token,
  invitation,
  signedInEmail,
  onAccepted,
  onSwitchAccount,
}: AcceptInvitationCardProps) {
  const accept = useAcceptInvitation()
  const sameEmail = signedInEmail.toLowerCase() === invitation.email.toLowerCase()
  return (
    <div className="grid gap-4 text-sm">
      <FormError message={accept.error ? errorMessage(accept.error) : null} />
      {sameEmail ? (
        <Button
          className="w-full"
          disabled={accept.isPending}
          onClick={() => accept.mutate(token, { onSuccess: onAccepted })}
        >
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
