import { Link, useNavigate } from 'react-router'
import { AuthCard } from '@/features/auth/components/auth-card'
import { SignInForm } from '@/features/auth/components/sign-in-form'
import { withNext } from '@/lib/next-path'
import { redirectIfSignedIn } from './redirect-if-signed-in'
import { useNextPath } from './use-next'

export const loader = redirectIfSignedIn

export default function SignInRoute() {
  const next = useNextPath()
  const navigate = useNavigate()
  return (
    <AuthCard
      title="Sign in to Sourcebook"
      description="Welcome back."
      footer={
        <div className="grid gap-2">
          <span>
            New here?{' '}
            <Link
              className="text-foreground font-medium underline-offset-4 hover:underline"
              to={withNext('/sign-up', next)}
            >
              Create an account
            </Link>
          </span>
          <Link className="underline-offset-4 hover:underline" to={withNext('/magic-link', next)}>
            Email me a sign-in link instead
          </Link>
        </div>
      }
    >
      <SignInForm
        redirectTo={window.location.origin + next}
        onSignedIn={() => navigate(next, { replace: true })}
      />
    </AuthCard>
  )
}
