import { Link } from 'react-router'
import { useSendMagicLink } from '@/features/auth/api/send-magic-link'
import { AuthCard } from '@/features/auth/components/auth-card'
import { EmailLinkForm } from '@/features/auth/components/email-link-form'
import { withNext } from '@/lib/next-path'
import { redirectIfSignedIn } from './redirect-if-signed-in'
import { useNextPath } from './use-next'

export const loader = redirectIfSignedIn

export default function MagicLinkRoute() {
  const next = useNextPath()
  const send = useSendMagicLink(window.location.origin + next)
  return (
    <AuthCard
      title="Sign in with a link"
      description="We’ll email you a link that signs you in, no password needed."
      footer={
        <Link className="underline-offset-4 hover:underline" to={withNext('/sign-in', next)}>
          Sign in with a password
        </Link>
      }
    >
      <EmailLinkForm
        submitLabel="Email me a link"
        sentMessage="We sent a sign-in link to"
        send={send}
      />
    </AuthCard>
  )
}
