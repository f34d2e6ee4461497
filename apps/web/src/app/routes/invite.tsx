import { TicketXIcon } from 'lucide-react'
import { Link, useNavigate, useParams, useSearchParams } from 'react-router'
import { PageSkeleton } from '@/components/layout/page-skeleton'
import { Button } from '@/components/ui/button'
import { signOut } from '@/features/auth/api/sign-out'
import { useSession } from '@/features/auth/api/use-session'
import { AuthCard } from '@/features/auth/components/auth-card'
import { CompleteAccountForm } from '@/features/auth/components/complete-account-form'
import { DisplayNameForm } from '@/features/auth/components/display-name-form'
import { useInvitation } from '@/features/members/api/get-invitation'
import { AcceptInvitationCard } from '@/features/members/components/accept-invitation-card'
import { roleWithArticle } from '@/features/members/utils/roles'
import { workspaceKeys } from '@/features/workspaces/api/keys'
import { queryClient } from '@/lib/query-client'
import { withNext } from '@/lib/next-path'

export default function InviteRoute() {
  const { token = '' } = useParams()
  const navigate = useNavigate()
  const [searchParams] = useSearchParams()
  const { session, loading } = useSession()
  const invitation = useInvitation(token)
  const here = `/invite/${token}`

  if (loading || invitation.isPending) return <PageSkeleton />
  const data = invitation.data
  const problem = invitation.isError
    ? 'We could not load this invitation. Try again in a moment.'
    : !data
      ? 'This invitation link is not valid. It may have been revoked or replaced by a newer one.'
      : data.accepted_at
        ? 'This invitation has already been used.'
        : new Date(data.expires_at) <= new Date()
          ? 'This invitation has expired. Ask a workspace owner to resend it.'
          : null
  if (problem || !data) {
    return (
      <AuthCard title="Invitation unavailable">
        <p className="text-muted-foreground flex items-start gap-2 text-sm">
          <TicketXIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
          {problem}
        </p>
        <Button asChild variant="outline" className="mt-6 w-full">
          <Link to="/">Go to Sourcebook</Link>
        </Button>
      </AuthCard>
    )
  }

  // The invitation mail's link signs a newcomer in to an account without a password (or a
  // name); once they have chosen both, they join without another click.
  const forMe = session?.user.email?.toLowerCase() === data.email.toLowerCase()
  const newAccount = searchParams.has('new_account') && forMe
  const accountSetUp = searchParams.has('account_set_up')
  // Someone who never chose a name (their profile took their address's first half) gives
  // one before joining, so teammates do not see "eddie".
  const unnamed = forMe && !session?.user.user_metadata.display_name
  const setUp = () => navigate(`${here}?account_set_up=1`, { replace: true })
  const description = (
    <>
      {data.invited_by_name ?? 'Someone'} invited <strong>{data.email}</strong> to join as{' '}
      <strong>{roleWithArticle(data.role)}</strong>.
    </>
  )
  return (
    <AuthCard title={`Join ${data.workspace_name}`} description={description}>
      {session && newAccount ? (
        <div className="grid gap-4 text-sm">
          <p>Tell your teammates who you are and choose a password, and you are in.</p>
          <CompleteAccountForm submitLabel={`Join ${data.workspace_name}`} onDone={setUp} />
        </div>
      ) : session && unnamed && !accountSetUp ? (
        <DisplayNameForm
          defaultName=""
          hint="How your teammates will see you."
          submitLabel={`Join ${data.workspace_name}`}
          onSaved={setUp}
        />
      ) : session ? (
        <AcceptInvitationCard
          token={token}
          invitation={data}
          autoJoin={accountSetUp}
          signedInEmail={session.user.email ?? ''}
          onAccepted={async (workspaceId) => {
            await queryClient.invalidateQueries({ queryKey: workspaceKeys.all })
            navigate(`/w/${workspaceId}`, { replace: true })
          }}
          onSwitchAccount={async () => {
            await signOut()
            navigate(withNext('/sign-in', here))
          }}
        />
      ) : (
        <div className="grid gap-3">
          <Button asChild>
            <Link to={`${withNext('/sign-up', here)}&email=${encodeURIComponent(data.email)}`}>
              Create an account to join
            </Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={withNext('/sign-in', here)}>I already have an account</Link>
          </Button>
        </div>
      )}
    </AuthCard>
  )
}
