import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { errorMessage } from '@/lib/errors'
import { useTwoFactor } from '../api/get-two-factor'
import { TotpCodeForm } from './totp-code-form'

type SecondFactorStepProps = {
  onVerified: () => void
  onSignOut: () => void
}

/** Sign-in's second step, for an account with an authenticator app. */
export function SecondFactorStep({ onVerified, onSignOut }: SecondFactorStepProps) {
  const twoFactor = useTwoFactor()
  if (twoFactor.isPending) return <Skeleton className="h-24 w-full" />
  const factor = twoFactor.data?.factors[0]
  if (!factor) {
    return <p className="text-destructive text-sm">{errorMessage(twoFactor.error)}</p>
  }
  return (
    <TotpCodeForm
      factorId={factor.id}
      submitLabel="Verify"
      pendingLabel="Verifying…"
      onVerified={onVerified}
      secondary={
        <Button type="button" variant="ghost" onClick={onSignOut}>
          Use another account
        </Button>
      }
    />
  )
}
