import { MailIcon } from 'lucide-react'
import { isLocalStack, mailboxUrl } from '@/config/env'
import { useMyInvitations } from '../api/get-my-invitations'
import { expiresIn } from '../utils/invitation-link'
import { roleWithArticle } from '../utils/roles'

/** Invitations waiting for the signed-in person; the link in their mail is what joins. */
export function MyInvitations() {
  const invitations = useMyInvitations()
  if (!invitations.data?.length) return null
  return (
    <section aria-labelledby="my-invitations-heading" className="mb-8 grid gap-3">
      <h2 id="my-invitations-heading" className="text-sm font-semibold">
        Invitations for you
      </h2>
      <ul className="bg-card divide-y rounded-xl border shadow-xs">
        {invitations.data.map((invitation) => (
          <li key={invitation.id} className="flex flex-wrap items-center gap-3 px-4 py-3 text-sm">
            <MailIcon className="text-muted-foreground size-4" aria-hidden />
            <span className="min-w-0 flex-1">
              <strong>{invitation.workspace_name}</strong>:{' '}
              {invitation.invited_by_name ?? 'an owner'} invited you as{' '}
              {roleWithArticle(invitation.role)}.
            </span>
            <span className="text-muted-foreground text-xs">
              {expiresIn(invitation.expires_at)}
            </span>
          </li>
        ))}
      </ul>
      <p className="text-muted-foreground text-sm">
        To join, open the link in the invitation mail
        {isLocalStack ? (
          <>
            {' '}
            (on this local Sourcebook, in the{' '}
            <a
              className="text-foreground font-medium underline underline-offset-4"
              href={mailboxUrl}
              target="_blank"
              rel="noreferrer"
            >
              dev mailbox
            </a>
            )
          </>
        ) : null}
        . If it is lost, ask an owner of the workspace to resend it.
      </p>
    </section>
  )
}
