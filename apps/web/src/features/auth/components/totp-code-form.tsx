import type * as React from 'react'
import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { FormError } from '@/components/layout/form-error'
import { FormField } from '@/components/layout/form-field'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { type TotpCodeInput, totpCodeSchema, useVerifyTotp } from '../api/verify-totp'
import { authErrorMessage } from '../utils/auth-error-message'

type TotpCodeFormProps = {
  factorId: string
  submitLabel: string
  pendingLabel: string
  onVerified: () => void
  autoFocus?: boolean
  /** Beside the submit button, e.g. Cancel. */
  secondary?: React.ReactNode
}

/** One field for the six digits an authenticator app shows; a wrong code says so and stays. */
export function TotpCodeForm({
  factorId,
  submitLabel,
  pendingLabel,
  onVerified,
  autoFocus = true,
  secondary,
}: TotpCodeFormProps) {
  const verify = useVerifyTotp()
  const form = useForm<TotpCodeInput, unknown, { code: string }>({
    resolver: zodResolver(totpCodeSchema),
    defaultValues: { code: '' },
  })
  const { errors } = form.formState
  const submit = form.handleSubmit(({ code }) =>
    verify.mutate(
      { factorId, code },
      {
        onSuccess: onVerified,
        onError: () => form.setFocus('code', { shouldSelect: true }),
      },
    ),
  )
  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <FormError message={verify.error ? authErrorMessage(verify.error) : null} />
      <FormField
        id="totp-code"
        label="Code from your authenticator app"
        error={errors.code?.message}
        hint="Six digits; a new one every 30 seconds."
      >
        <Input
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          autoFocus={autoFocus}
          className="max-w-40 font-mono tracking-widest"
          {...form.register('code')}
        />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={verify.isPending}>
          {verify.isPending ? pendingLabel : submitLabel}
        </Button>
        {secondary}
      </div>
    </form>
  )
}
