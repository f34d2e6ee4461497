import { Link } from 'react-router'
import { useRequestPasswordReset } from '@/features/auth/api/request-password-reset'
import { AuthCard } from '@/features/auth/components/auth-card'
import { EmailLinkForm } from '@/features/auth/components/email-link-form'

export default function ForgotPasswordRoute() {
  const send = useRequestPasswordReset(`${window.location.origin}/reset-password`)
  return (
    <AuthCard
      title="Reset your password"
      description="Enter your email and we’ll send you a link to choose a new password."
      footer={
        <Link className="underline-offset-4 hover:underline" to="/sign-in">
          Back to sign in
        </Link>
      }
    >
      <EmailLinkForm
        submitLabel="Send reset link"
        sentMessage="If an account exists, we sent a reset link to"
        send={send}
      />
    </AuthCard>
  )
}
