import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { FormError } from '@/components/layout/form-error'
import { FormField } from '@/components/layout/form-field'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import {
  type CompleteAccountInput,
  completeAccountSchema,
  useCompleteAccount,
} from '../api/complete-account'
import { authErrorMessage } from '../utils/auth-error-message'

type CompleteAccountFormProps = { submitLabel: string; onDone: () => void }

/** Name and password for an account an invitation created, in one step. */
export function CompleteAccountForm({ submitLabel, onDone }: CompleteAccountFormProps) {
  const complete = useCompleteAccount()
  const form = useForm<CompleteAccountInput>({
    resolver: zodResolver(completeAccountSchema),
    defaultValues: { displayName: '', password: '', confirm: '' },
  })
  const { errors } = form.formState
  return (
    <form
      onSubmit={form.handleSubmit((input) => complete.mutate(input, { onSuccess: onDone }))}
      noValidate
      className="grid gap-4"
    >
      <FormError message={complete.error ? authErrorMessage(complete.error) : null} />
      <FormField
        id="displayName"
        label="Your name"
        error={errors.displayName?.message}
        hint="How your teammates will see you."
      >
        <Input autoComplete="name" autoFocus {...form.register('displayName')} />
      </FormField>
      <FormField
        id="password"
        label="Password"
        error={errors.password?.message}
        hint="At least 8 characters."
      >
        <Input type="password" autoComplete="new-password" {...form.register('password')} />
      </FormField>
      <FormField id="confirm" label="Repeat the password" error={errors.confirm?.message}>
        <Input type="password" autoComplete="new-password" {...form.register('confirm')} />
      </FormField>
      <Button type="submit" disabled={complete.isPending} className="w-full">
        {complete.isPending ? 'Saving…' : submitLabel}
      </Button>
    </form>
  )
}
