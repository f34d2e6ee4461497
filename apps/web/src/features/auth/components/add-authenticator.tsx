import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { FormError } from '@/components/layout/form-error'
import { FormField } from '@/components/layout/form-field'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import {
  type EnrollTotpInput,
  type PendingTotp,
  enrollTotpSchema,
  useEnrollTotp,
} from '../api/enroll-totp'
import { useUnenrollFactor } from '../api/unenroll-factor'
import { authErrorMessage } from '../utils/auth-error-message'
import { QrCode } from './qr-code'
import { TotpCodeForm } from './totp-code-form'

type AddAuthenticatorProps = {
  abandonedIds: string[]
  onAdded: () => void
  onCancel: () => void
}

/** Name the app, scan the code (or type the key), confirm with a code: three steps in place. */
export function AddAuthenticator({ abandonedIds, onAdded, onCancel }: AddAuthenticatorProps) {
  const enroll = useEnrollTotp(abandonedIds)
  const unenroll = useUnenrollFactor()
  const [pending, setPending] = useState<PendingTotp | null>(null)
  const form = useForm<EnrollTotpInput>({
    resolver: zodResolver(enrollTotpSchema),
    defaultValues: { name: 'Authenticator app' },
  })
  const { errors } = form.formState

  if (!pending) {
    return (
      <form
        onSubmit={form.handleSubmit((input) => enroll.mutate(input, { onSuccess: setPending }))}
        noValidate
        className="grid gap-4"
      >
        <FormError message={enroll.error ? authErrorMessage(enroll.error) : null} />
        <FormField
          id="factor-name"
          label="App name"
          error={errors.name?.message}
          hint="So you can tell your apps apart, e.g. “Phone”."
        >
          <Input autoFocus autoComplete="off" {...form.register('name')} />
        </FormField>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={enroll.isPending}>
            {enroll.isPending ? 'Preparing…' : 'Continue'}
          </Button>
          <Button type="button" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    )
  }

  // Cancelling removes the half-added app, which would otherwise block the next attempt.
  const cancel = () => unenroll.mutate(pending.factorId, { onSettled: onCancel })
  return (
    <div className="grid gap-5">
      <ol className="text-muted-foreground list-decimal space-y-1 pl-5 text-sm">
        <li>Open your authenticator app (1Password, Google Authenticator, Authy…).</li>
        <li>Scan this QR code, or enter the setup key by hand.</li>
        <li>Type the 6-digit code the app then shows.</li>
      </ol>
      <div className="flex flex-wrap items-start gap-6">
        <QrCode value={pending.uri} label="QR code to add Sourcebook to an authenticator app" />
        <div className="grid min-w-0 gap-1">
          <span className="text-sm font-medium" id="setup-key-label">
            Setup key
          </span>
          <code
            aria-labelledby="setup-key-label"
            data-testid="totp-secret"
            className="bg-muted rounded px-2 py-1 font-mono text-sm break-all select-all"
          >
            {pending.secret.replace(/(.{4})/g, '$1 ').trim()}
          </code>
        </div>
      </div>
      <TotpCodeForm
        factorId={pending.factorId}
        submitLabel="Turn on two-factor sign-in"
        pendingLabel="Checking…"
        onVerified={onAdded}
        secondary={
          <Button type="button" variant="ghost" onClick={cancel} disabled={unenroll.isPending}>
            Cancel
          </Button>
        }
      />
    </div>
  )
}
