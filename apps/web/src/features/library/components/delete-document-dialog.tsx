import { ConfirmDialog } from '@/components/layout/confirm-dialog'
import { useDeleteDocument } from '../api/delete-document'

type DeleteDocumentDialogProps = {
  workspaceId: string
  document: { id: string; title: string } | null
  onClose: () => void
}

export function DeleteDocumentDialog({
  workspaceId,
  document,
  onClose,
}: DeleteDocumentDialogProps) {
  const remove = useDeleteDocument(workspaceId)
  return (
    <ConfirmDialog
      open={!!document}
      onOpenChange={(open) => (open ? null : onClose())}
      title={`Delete “${document?.title ?? ''}”?`}
      description="The original file, its text and its passages are removed for everyone in the workspace. Answers that cited it keep their quotes but can no longer open it."
      confirmLabel="Delete"
      pendingLabel="Deleting…"
      cancelLabel="Keep"
      destructive
      onConfirm={async () => {
        if (!document) return
        await remove.mutateAsync(document.id)
        onClose()
      }}
    />
  )
}
