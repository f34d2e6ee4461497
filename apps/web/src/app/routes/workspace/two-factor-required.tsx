import { Link, useNavigate, useRevalidator } from 'react-router'
import { Button } from '@/components/ui/button'
import { useSignOut } from '@/features/auth/api/sign-out'
import { useTwoFactor } from '@/features/auth/api/get-two-factor'
import { AuthCard } from '@/features/auth/components/auth-card'
import { SecondFactorStep } from '@/features/auth/components/second-factor-step'

/**
 * What a member of a workspace that requires two-factor sign-in sees from a session that gave
 * no code: why the workspace is closed, and the one step that opens it.
 */
export function TwoFactorRequired({ name }: { name: string }) {
  const twoFactor = useTwoFactor()
  const revalidator = useRevalidator()
  const navigate = useNavigate()
  const signOut = useSignOut({ onSuccess: () => navigate('/sign-in') })
  const back = (
    <Link className="underline-offset-4 hover:underline" to="/workspaces">
      Back to workspaces
    </Link>
  )
  if (twoFactor.data?.needsCode) {
    return (
      <AuthCard
        title={`${name} requires two-factor sign-in`}
        description="Enter the code your authenticator app shows for Sourcebook to open it."
        footer={back}
      >
        <SecondFactorStep
          onVerified={() => void revalidator.revalidate()}
          onSignOut={() => signOut.mutate()}
        />
      </AuthCard>
    )
  }
  return (
    <AuthCard
      title={`${name} requires two-factor sign-in`}
      description="Its owner asks every member to sign in with a code from an authenticator app. Add one to your account to open this workspace."
      footer={back}
    >
      <Button asChild className="w-full">
        <Link to="/account#security">Set up two-factor sign-in</Link>
      </Button>
    </AuthCard>
  )
}
