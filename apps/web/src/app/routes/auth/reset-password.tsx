import { Link, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { useSession } from '@/features/auth/api/use-session'
import { AuthCard } from '@/features/auth/components/auth-card'
import { NewPasswordForm } from '@/features/auth/components/new-password-form'
import { PageSkeleton } from '@/components/layout/page-skeleton'

/** Reached from the reset mail: the link has signed the person in for this one purpose. */
export default function ResetPasswordRoute() {
  const { session, loading } = useSession()
  const navigate = useNavigate()
  if (loading) return <PageSkeleton />
  if (!session) {
    return (
      <AuthCard
        title="This link no longer works"
        description="Reset links work once and expire after an hour."
      >
        <Link className="text-sm font-medium underline underline-offset-4" to="/forgot-password">
          Send a new reset link
        </Link>
      </AuthCard>
    )
  }
  return (
    <AuthCard
      title="Choose a new password"
      description={`For ${session.user.email ?? 'your account'}.`}
    >
      <NewPasswordForm
        onDone={() => {
          toast.success('Password changed')
          navigate('/', { replace: true })
        }}
      />
    </AuthCard>
  )
}
