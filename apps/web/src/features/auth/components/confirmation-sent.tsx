import { MailCheckIcon } from 'lucide-react'
import { MailboxNote } from './mailbox-note'
import { ResendConfirmation } from './resend-confirmation'

type ConfirmationSentProps = { email: string; redirectTo: string }

/** After signing up: the account waits until its address is confirmed from the mail. */
export function ConfirmationSent({ email, redirectTo }: ConfirmationSentProps) {
  return (
    <div className="grid gap-4 text-sm">
      <p role="status" className="flex items-start gap-2">
        <MailCheckIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>
          Check your inbox: we sent a link to <strong>{email}</strong>. Open it to confirm your
          address and sign in.
        </span>
      </p>
      <MailboxNote email={email} />
      <ResendConfirmation email={email} redirectTo={redirectTo} />
    </div>
  )
}
