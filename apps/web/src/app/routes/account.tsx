import { ArrowLeftIcon } from 'lucide-react'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, type LoaderFunctionArgs, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { Logo } from '@/components/layout/logo'
import { ThemeToggle } from '@/components/layout/theme-toggle'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { getAccountQueryOptions } from '@/features/auth/api/get-account'
import { ChangeEmailForm } from '@/features/auth/components/change-email-form'
import { DisplayNameForm } from '@/features/auth/components/display-name-form'
import { NewPasswordForm } from '@/features/auth/components/new-password-form'
import { SignOutEverywhereButton } from '@/features/auth/components/sign-out-everywhere-button'
import { TwoFactorSettings } from '@/features/auth/components/two-factor-settings'
import { UserMenu } from '@/features/auth/components/user-menu'
import { queryClient } from '@/lib/query-client'
import { requireSession } from '../session'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSession(request)
  await queryClient.ensureQueryData(getAccountQueryOptions())
  return null
}

export default function AccountRoute() {
  const navigate = useNavigate()
  const { data: account } = useSuspenseQuery(getAccountQueryOptions())
  // A fresh form after each change, so the passwords typed do not linger in it.
  const [passwordForm, setPasswordForm] = useState(0)
  const signedOut = () => navigate('/sign-in', { replace: true })
  return (
    <div className="bg-muted/30 min-h-svh">
      <header className="bg-background flex items-center justify-between gap-4 border-b px-4 py-3 sm:px-8">
        <Logo />
        <div className="flex items-center gap-1">
          <ThemeToggle />
          <div className="w-48 max-w-[40vw]">
            <UserMenu onSignedOut={signedOut} />
          </div>
        </div>
      </header>
      <main className="mx-auto grid max-w-2xl gap-6 px-4 py-10 sm:px-8">
        <div>
          <Button asChild variant="ghost" size="sm" className="mb-2 -ml-3">
            <Link to="/workspaces">
              <ArrowLeftIcon aria-hidden /> Workspaces
            </Link>
          </Button>
          <h1 className="text-2xl font-semibold tracking-tight">Account</h1>
          <p className="text-muted-foreground mt-1 text-sm">
            How your teammates see you, and how you sign in.
          </p>
        </div>
        <Card>
          <CardHeader>
            <CardTitle>Name</CardTitle>
            <CardDescription>
              Shown to the members of your workspaces, on documents and in conversations.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <DisplayNameForm
              key={account.displayName}
              defaultName={account.displayName}
              onSaved={() => toast.success('Name saved')}
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Email</CardTitle>
            <CardDescription>
              Invitations are sent to it. A new address takes effect once you confirm it.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ChangeEmailForm email={account.email} pendingEmail={account.newEmail} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Password</CardTitle>
            <CardDescription>Choose a new password for signing in.</CardDescription>
          </CardHeader>
          <CardContent>
            <NewPasswordForm
              key={passwordForm}
              autoFocus={false}
              onDone={() => {
                toast.success('Password changed')
                setPasswordForm((n) => n + 1)
              }}
            />
          </CardContent>
        </Card>
        <Card id="security">
          <CardHeader>
            <CardTitle>Two-factor sign-in</CardTitle>
            <CardDescription>
              After your password, a code from an authenticator app on your phone. Some workspaces
              require it.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <TwoFactorSettings />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Sessions</CardTitle>
            <CardDescription>
              Signed in somewhere you no longer use? End every session at once.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <SignOutEverywhereButton
              onSignedOut={() => {
                toast.success('Signed out of all devices')
                signedOut()
              }}
            />
          </CardContent>
        </Card>
      </main>
    </div>
  )
}
