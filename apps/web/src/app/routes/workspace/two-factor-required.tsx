import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { AuthCard } from '@/features/auth/components/auth-card'

/**
 * What a member of a workspace that requires two-factor sign-in sees when their account has
 * no authenticator app (an account with one gives its code at sign-in): why the workspace is
 * closed, and the one step that opens it.
 */
export function TwoFactorRequired({ name }: { name: string }) {
  return (
    <AuthCard
      title={`${name} requires two-factor sign-in`}
      description="Its owner asks every member to sign in with a code from an authenticator app. Add one to your account to open this workspace."
      footer={
        <Link className="underline-offset-4 hover:underline" to="/workspaces">
          Back to workspaces
        </Link>
      }
    >
      <Button asChild className="w-full">
        <Link to="/account#security">Set up two-factor sign-in</Link>
      </Button>
    </AuthCard>
  )
}
