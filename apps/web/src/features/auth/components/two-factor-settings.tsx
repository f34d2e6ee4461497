import { useState } from 'react'
import { toast } from 'sonner'
import { ConfirmDialog } from '@/components/layout/confirm-dialog'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { formatDate } from '@/lib/format'
import { errorMessage } from '@/lib/errors'
import { useTwoFactor } from '../api/get-two-factor'
import { useUnenrollFactor } from '../api/unenroll-factor'
import { AddAuthenticator } from './add-authenticator'

/** Account → Security: the authenticator apps that sign in with a code, added and removed. */
export function TwoFactorSettings() {
  const twoFactor = useTwoFactor()
  const unenroll = useUnenrollFactor()
  const [adding, setAdding] = useState(false)
  if (twoFactor.isPending) return <Skeleton className="h-10 w-56" />
  if (twoFactor.isError)
    return <p className="text-destructive text-sm">{errorMessage(twoFactor.error)}</p>
  const { factors, unverifiedIds } = twoFactor.data

  if (adding) {
    return (
      <AddAuthenticator
        abandonedIds={unverifiedIds}
        onCancel={() => setAdding(false)}
        onAdded={() => {
          setAdding(false)
          toast.success('Two-factor sign-in is on')
        }}
      />
    )
  }
  return (
    <div className="grid gap-4">
      {factors.length ? (
        <ul className="divide-y rounded-md border" aria-label="Authenticator apps">
          {factors.map((factor) => (
            <li key={factor.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
              <div className="min-w-0">
                <p className="truncate text-sm font-medium">{factor.name}</p>
                <p className="text-muted-foreground text-xs">
                  Added {formatDate(factor.createdAt)}
                </p>
              </div>
              <ConfirmDialog
                trigger={
                  <Button variant="outline" size="sm" aria-label={`Remove ${factor.name}`}>
                    Remove
                  </Button>
                }
                title={`Remove ${factor.name}?`}
                description={
                  factors.length === 1
                    ? 'Signing in will take only your password again, and workspaces that require two-factor sign-in will close to you.'
                    : 'Codes from this app will no longer sign you in.'
                }
                confirmLabel="Remove"
                pendingLabel="Removing…"
                destructive
                onConfirm={() =>
                  unenroll
                    .mutateAsync(factor.id)
                    .then(() => toast.success(`${factor.name} removed`))
                }
              />
            </li>
          ))}
        </ul>
      ) : null}
      <div>
        <Button variant={factors.length ? 'outline' : 'default'} onClick={() => setAdding(true)}>
          {factors.length ? 'Add another app' : 'Add an authenticator app'}
        </Button>
      </div>
    </div>
  )
}
