import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { Link } from 'react-router'
import { FormError } from '@/components/layout/form-error'
import { FormField } from '@/components/layout/form-field'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { type SignInInput, signInSchema, useSignIn } from '../api/sign-in'
import { authErrorMessage, isUnconfirmed } from '../utils/auth-error-message'
import { MailboxNote } from './mailbox-note'
import { ResendConfirmation } from './resend-confirmation'

type SignInFormProps = {
  /** Where a confirmation link sent again lands, signed in. */
  redirectTo: string
  onSignedIn: () => void
}

export function SignInForm({ redirectTo, onSignedIn }: SignInFormProps) {
  const signIn = useSignIn()
  const form = useForm<SignInInput>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: '', password: '' },
  })
  const { errors } = form.formState
  const submit = form.handleSubmit((input) => signIn.mutate(input, { onSuccess: onSignedIn }))
  // The address Auth refused as unconfirmed: offer its confirmation mail again.
  const unconfirmed = isUnconfirmed(signIn.error) ? signIn.variables?.email : undefined

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <FormError message={signIn.error ? authErrorMessage(signIn.error) : null} />
      {unconfirmed ? (
        <div className="grid gap-2 text-sm">
          <MailboxNote email={unconfirmed} />
          <ResendConfirmation key={unconfirmed} email={unconfirmed} redirectTo={redirectTo} />
        </div>
      ) : null}
      <FormField id="email" label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" autoFocus {...form.register('email')} />
      </FormField>
      <FormField
        id="password"
        label="Password"
        error={errors.password?.message}
        aside={
          <Link
            to="/forgot-password"
            className="text-muted-foreground text-sm underline-offset-4 hover:underline"
          >
            Forgot password?
          </Link>
        }
      >
        <Input type="password" autoComplete="current-password" {...form.register('password')} />
      </FormField>
      <Button type="submit" disabled={signIn.isPending} className="mt-2 w-full">
        {signIn.isPending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  )
}
