import { ConfirmDialog } from '@/components/layout/confirm-dialog'
import { Button } from '@/components/ui/button'
import { useSignOutEverywhere } from '../api/sign-out-everywhere'

/** Ends every session of the account, e.g. after using a shared or lost device. */
export function SignOutEverywhereButton({ onSignedOut }: { onSignedOut: () => void }) {
  const signOut = useSignOutEverywhere({ onSuccess: onSignedOut })
  return (
    <ConfirmDialog
      trigger={<Button variant="outline">Sign out of all devices…</Button>}
      title="Sign out of all devices?"
      description="Every browser and app signed in to this account, this one included, will need your password again."
      confirmLabel="Sign out everywhere"
      pendingLabel="Signing out…"
      onConfirm={() => signOut.mutateAsync()}
    />
  )
}
