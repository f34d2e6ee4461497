import { InboxIcon } from 'lucide-react'
import { isLocalStack, mailboxUrl } from '@/config/env'

/** On the local stack no mail leaves the machine: point people at the dev mailbox. */
export function MailboxNote({ email }: { email?: string }) {
  if (!isLocalStack) return null
  const href = email ? `${mailboxUrl}?email=${encodeURIComponent(email)}` : mailboxUrl
  return (
    <p className="bg-muted/50 text-muted-foreground flex items-start gap-2 rounded-md border px-3 py-2 text-sm">
      <InboxIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>
        This is a local Sourcebook, so mail is not sent: it lands in the{' '}
        <a
          className="text-foreground font-medium underline underline-offset-4"
          href={href}
          target="_blank"
          rel="noreferrer"
        >
          dev mailbox
        </a>
        .
      </span>
    </p>
  )
}
