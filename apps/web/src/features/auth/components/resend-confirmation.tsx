import { FormError } from '@/components/layout/form-error'
import { Button } from '@/components/ui/button'
import { useResendConfirmation } from '../api/resend-confirmation'
import { authErrorMessage } from '../utils/auth-error-message'

type ResendConfirmationProps = { email: string; redirectTo: string }

/** For a mail that never came, or a link that expired: the confirmation, sent again. */
export function ResendConfirmation({ email, redirectTo }: ResendConfirmationProps) {
  const resend = useResendConfirmation(redirectTo)
  return (
    <div className="grid gap-2">
      <FormError message={resend.error ? authErrorMessage(resend.error) : null} />
      {resend.isSuccess ? (
        <p role="status" className="text-muted-foreground">
          Sent again. Use the link in the newest mail.
        </p>
      ) : null}
      <Button
        type="button"
        variant="outline"
        className="w-full"
        disabled={resend.isPending}
        onClick={() => resend.mutate(email)}
      >
        {resend.isPending ? 'Sending…' : 'Send the link again'}
      </Button>
    </div>
  )
}
