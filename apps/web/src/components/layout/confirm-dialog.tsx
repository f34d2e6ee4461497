import type * as React from 'react'
import { useState } from 'react'
import { FormError } from '@/components/layout/form-error'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog'
import { Button } from '@/components/ui/button'
import { errorMessage } from '@/lib/errors'

type ConfirmDialogProps = {
  /** The button that opens it; without one, `open` and `onOpenChange` control it. */
  trigger?: React.ReactNode
  open?: boolean
  onOpenChange?: (open: boolean) => void
  /** Where focus goes back to on closing, when what opened it is gone by then. */
  onCloseAutoFocus?: (event: Event) => void
  title: React.ReactNode
  description: React.ReactNode
  /** Anything asked before confirming, such as a name to type out. */
  children?: React.ReactNode
  confirmLabel: string
  /** The confirm button's label while `onConfirm` runs, e.g. 'Deleting…'. */
  pendingLabel: string
  cancelLabel?: string
  destructive?: boolean
  /** Confirming is not possible yet (e.g. the typed name does not match). */
  disabled?: boolean
  /** Does the thing; a rejection keeps the dialog open and says why. Closing is the caller's. */
  onConfirm: () => Promise<unknown>
}

/** An alert dialog that asks before doing something, shows it being done, and any failure. */
export function ConfirmDialog({
  trigger,
  open,
  onOpenChange,
  onCloseAutoFocus,
  title,
  description,
  children,
  confirmLabel,
  pendingLabel,
  cancelLabel = 'Cancel',
  destructive = false,
  disabled = false,
  onConfirm,
}: ConfirmDialogProps) {
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const confirm = async () => {
    setPending(true)
    setError(null)
    try {
      await onConfirm()
    } catch (failure) {
      setError(errorMessage(failure))
    } finally {
      setPending(false)
    }
  }
  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        setError(null)
        onOpenChange?.(next)
      }}
    >
      {trigger ? <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger> : null}
      <AlertDialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <FormError message={error} />
        <AlertDialogFooter>
          <AlertDialogCancel>{cancelLabel}</AlertDialogCancel>
          <Button
            variant={destructive ? 'destructive' : 'default'}
            disabled={disabled || pending}
            onClick={() => void confirm()}
          >
            {pending ? pendingLabel : confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}
