import { zodResolver } from '@hookform/resolvers/zod'
import { MailCheckIcon } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { FormError } from '@/components/layout/form-error'
import { FormField } from '@/components/layout/form-field'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { type ChangeEmailInput, changeEmailSchema, useChangeEmail } from '../api/change-email'
import { authErrorMessage } from '../utils/auth-error-message'

type ChangeEmailFormProps = { email: string; pendingEmail: string | null }

/** Moves the account to another address, once the mailed links confirm it. */
export function ChangeEmailForm({ email, pendingEmail }: ChangeEmailFormProps) {
  const change = useChangeEmail()
  const form = useForm<ChangeEmailInput>({
    resolver: zodResolver(changeEmailSchema),
    defaultValues: { email: '' },
  })
  const { errors } = form.formState
  return (
    <div className="grid gap-4">
      <p className="text-sm">
        You sign in as <strong className="break-all">{email}</strong>.
      </p>
      {pendingEmail ? (
        <p role="status" className="bg-muted flex items-start gap-2 rounded-md p-3 text-sm">
          <MailCheckIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>
            Waiting to confirm <strong className="break-all">{pendingEmail}</strong>: open the link
            we sent there, and the one we sent to <span className="break-all">{email}</span>. Your
            address changes once both are opened.
          </span>
        </p>
      ) : null}
      <form
        onSubmit={form.handleSubmit((input) =>
          change.mutate(input, { onSuccess: () => form.reset() }),
        )}
        noValidate
        className="grid gap-4"
      >
        <FormError message={change.error ? authErrorMessage(change.error) : null} />
        <FormField id="newEmail" label="New email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" {...form.register('email')} />
        </FormField>
        <Button
          type="submit"
          variant="outline"
          disabled={change.isPending}
          className="justify-self-start"
        >
          {change.isPending ? 'Sending…' : 'Send confirmation links'}
        </Button>
      </form>
    </div>
  )
}
