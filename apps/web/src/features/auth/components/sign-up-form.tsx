import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { FormError } from '@/components/layout/form-error'
import { FormField } from '@/components/layout/form-field'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { type SignUpInput, signUpSchema, useSignUp } from '../api/sign-up'
import { authErrorMessage } from '../utils/auth-error-message'
import { ConfirmationSent } from './confirmation-sent'

type SignUpFormProps = { redirectTo: string; onSignedIn: () => void; defaultEmail?: string }

export function SignUpForm({ redirectTo, onSignedIn, defaultEmail = '' }: SignUpFormProps) {
  const signUp = useSignUp(redirectTo)
  const form = useForm<SignUpInput>({
    resolver: zodResolver(signUpSchema),
    defaultValues: { displayName: '', email: defaultEmail, password: '' },
  })
  const { errors } = form.formState
  const submit = form.handleSubmit((input) =>
    signUp.mutate(input, {
      // With confirmations off the answer is a session; otherwise a mail is on its way.
      onSuccess: (data) => (data.session ? onSignedIn() : undefined),
    }),
  )

  if (signUp.isSuccess && !signUp.data.session) {
    return <ConfirmationSent email={form.getValues('email')} redirectTo={redirectTo} />
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <FormError message={signUp.error ? authErrorMessage(signUp.error) : null} />
      <FormField id="displayName" label="Name" error={errors.displayName?.message}>
        <Input autoComplete="name" autoFocus {...form.register('displayName')} />
      </FormField>
      <FormField id="email" label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...form.register('email')} />
      </FormField>
      <FormField
        id="password"
        label="Password"
        error={errors.password?.message}
        hint="At least 8 characters."
      >
        <Input type="password" autoComplete="new-password" {...form.register('password')} />
      </FormField>
      <Button type="submit" disabled={signUp.isPending} className="mt-2 w-full">
        {signUp.isPending ? 'Creating your account…' : 'Create account'}
      </Button>
    </form>
  )
}
