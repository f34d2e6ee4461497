import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { FormError } from '@/components/layout/form-error'
import { FormField } from '@/components/layout/form-field'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { type NewPasswordInput, newPasswordSchema, useUpdatePassword } from '../api/update-password'
import { authErrorMessage } from '../utils/auth-error-message'

type NewPasswordFormProps = {
  onDone: () => void
  /** Off where the form is one of several on a page, which should not jump to it. */
  autoFocus?: boolean
}

export function NewPasswordForm({ onDone, autoFocus = true }: NewPasswordFormProps) {
  const update = useUpdatePassword()
  const form = useForm<NewPasswordInput>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', confirm: '' },
  })
  const { errors } = form.formState
  return (
    <form
      onSubmit={form.handleSubmit((input) => update.mutate(input, { onSuccess: onDone }))}
      noValidate
      className="grid gap-4"
    >
      <FormError message={update.error ? authErrorMessage(update.error) : null} />
      <FormField
        id="password"
        label="New password"
        error={errors.password?.message}
        hint="At least 8 characters."
      >
        <Input
          type="password"
          autoComplete="new-password"
          autoFocus={autoFocus}
          {...form.register('password')}
        />
      </FormField>
      <FormField id="confirm" label="Repeat it" error={errors.confirm?.message}>
        <Input type="password" autoComplete="new-password" {...form.register('confirm')} />
      </FormField>
      <Button type="submit" disabled={update.isPending} className="w-full">
        {update.isPending ? 'Saving…' : 'Set new password'}
      </Button>
    </form>
  )
}
