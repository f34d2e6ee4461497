import { Link, useNavigate, useSearchParams } from 'react-router'
import { AuthCard } from '@/features/auth/components/auth-card'
import { SignUpForm } from '@/features/auth/components/sign-up-form'
import { withNext } from '@/lib/next-path'
import { redirectIfSignedIn } from './redirect-if-signed-in'
import { useNextPath } from './use-next'

export const loader = redirectIfSignedIn

export default function SignUpRoute() {
  const next = useNextPath()
  const [params] = useSearchParams()
  const navigate = useNavigate()
  return (
    <AuthCard
      title="Create your account"
      description="Keep your team’s documents in one place, and ask them questions."
      footer={
        <span>
          Already have an account?{' '}
          <Link
            className="text-foreground font-medium underline-offset-4 hover:underline"
            to={withNext('/sign-in', next)}
          >
            Sign in
          </Link>
        </span>
      }
    >
      <SignUpForm
        redirectTo={window.location.origin + next}
        defaultEmail={params.get('email') ?? ''}
        onSignedIn={() => navigate(next, { replace: true })}
      />
    </AuthCard>
  )
}
