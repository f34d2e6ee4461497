import { useState } from 'react'
import { Link, type LoaderFunctionArgs, useLoaderData, useNavigate } from 'react-router'
import { needsSecondFactor } from '@/features/auth/api/needs-second-factor'
import { useSignOut } from '@/features/auth/api/sign-out'
import { getSession } from '@/features/auth/api/use-session'
import { AuthCard } from '@/features/auth/components/auth-card'
import { SecondFactorStep } from '@/features/auth/components/second-factor-step'
import { SignInForm } from '@/features/auth/components/sign-in-form'
import { withNext } from '@/lib/next-path'
import { redirectIfSignedIn } from './redirect-if-signed-in'
import { useNextPath } from './use-next'

// Signed in with the password only, on an account with an authenticator app: the code is
// asked for here, and every signed-in page sends such a session back here (app/session.ts).
// Asked of Auth, not the session's copy: a page may send here for an app added elsewhere.
export async function loader(args: LoaderFunctionArgs) {
  if ((await getSession()) && (await needsSecondFactor({ fresh: true })))
    return { step: 'code' as const }
  await redirectIfSignedIn(args)
  return { step: 'password' as const }
}

export default function SignInRoute() {
  const next = useNextPath()
  const navigate = useNavigate()
  const [step, setStep] = useState(useLoaderData<typeof loader>().step)
  const done = () => navigate(next, { replace: true })
  const signOut = useSignOut({ onSuccess: () => setStep('password') })
  if (step === 'code') {
    return (
      <AuthCard
        title="Two-factor sign-in"
        description="Enter the code your authenticator app shows for Sourcebook."
      >
        <SecondFactorStep onVerified={done} onSignOut={() => signOut.mutate()} />
      </AuthCard>
    )
  }
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
        onSignedIn={() =>
          void needsSecondFactor().then((code) => (code ? setStep('code') : done()))
        }
      />
    </AuthCard>
  )
}
