import { ConfirmDialog } from '@/components/layout/confirm-dialog'
import { useDeleteDocument } from '../api/delete-document'

type DeleteDocumentDialogProps = {
  id: string
  title: string
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Where focus goes back to on closing (the menu that opened it is gone by then). */
  onCloseAutoFocus: (event: Event) => void
  onDeleted: () => void
}

/** Deletes the document, its original and its passages, after confirmation. */
export function DeleteDocumentDialog({
  id,
  title,
  onDeleted,
  ...dialog
}: DeleteDocumentDialogProps) {
  const remove = useDeleteDocument({ onSuccess: onDeleted })
  return (
    <ConfirmDialog
      {...dialog}
      title={`Delete “${title}”?`}
      description="The original file and every passage of it are deleted for everyone in the workspace; chat answers that cited it lose their link. This cannot be undone."
      confirmLabel="Delete document"
      pendingLabel="Deleting…"
      destructive
      onConfirm={() => remove.mutateAsync(id)}
    />
  )
}
