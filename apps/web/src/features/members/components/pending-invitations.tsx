import { MailIcon } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { useInvitations } from '../api/get-invitations'
import { useResendInvitation } from '../api/resend-invitation'
import { useRevokeInvitation } from '../api/revoke-invitation'
import { expiresIn, invitationLink } from '../utils/invitation-link'
import { CopyLink } from './copy-link'

/** Owners only: the invitations nobody has accepted yet. */
export function PendingInvitations({ workspaceId }: { workspaceId: string }) {
  const invitations = useInvitations(workspaceId)
  const revoke = useRevokeInvitation(workspaceId)
  const resend = useResendInvitation(workspaceId)

  if (invitations.isPending) return <Skeleton className="h-16 w-full" />
  if (!invitations.data?.length) return null
  return (
    <section aria-labelledby="pending-heading" className="grid gap-3">
      <h2 id="pending-heading" className="text-sm font-semibold">
        Pending invitations
      </h2>
      <ul className="bg-card divide-y rounded-xl border shadow-xs">
        {invitations.data.map((invitation) => {
          const status = expiresIn(invitation.expires_at)
          return (
            <li key={invitation.id} className="grid gap-3 px-4 py-3">
              <div className="flex flex-wrap items-center gap-3">
                <MailIcon className="text-muted-foreground size-4" aria-hidden />
                <span className="min-w-0 flex-1 truncate text-sm font-medium">
                  {invitation.email}
                </span>
                <Badge variant="outline" className="capitalize">
                  {invitation.role}
                </Badge>
                <span
                  className={
                    status === 'Expired'
                      ? 'text-destructive text-xs'
                      : 'text-muted-foreground text-xs'
                  }
                >
                  {status}
                </span>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={resend.isPending}
                  onClick={() => resend.mutate(invitation.id)}
                >
                  Resend
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={revoke.isPending}
                  onClick={() => revoke.mutate(invitation.id)}
                  aria-label={`Revoke the invitation for ${invitation.email}`}
                >
                  Revoke
                </Button>
              </div>
              {invitation.token ? (
                <CopyLink
                  link={invitationLink(invitation.token)}
                  label={`Invitation link for ${invitation.email}`}
                />
              ) : null}
            </li>
          )
        })}
      </ul>
    </section>
  )
}
