import { toast } from 'sonner'
import { ConfirmDialog } from '@/components/layout/confirm-dialog'
import type { Collection } from '../api/get-collections'
import { useDeleteCollection } from '../api/delete-collection'

type DeleteCollectionDialogProps = {
  collection: Collection | null
  onClose: () => void
  /** Told once it is gone (to stop filtering by it, say). */
  onDeleted?: (collection: Collection) => void
}

/** Asks before deleting a collection, and says its documents stay. */
export function DeleteCollectionDialog({
  collection,
  onClose,
  onDeleted,
}: DeleteCollectionDialogProps) {
  const remove = useDeleteCollection()
  return (
    <ConfirmDialog
      open={collection !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={`Delete “${collection?.name ?? ''}”?`}
      description="The collection goes; its documents stay in the library and in any other collections. Conversations that kept to it no longer do."
      confirmLabel="Delete collection"
      pendingLabel="Deleting…"
      destructive
      onConfirm={async () => {
        if (!collection) return
        await remove.mutateAsync({ id: collection.id, workspaceId: collection.workspace_id })
        toast.success(`Deleted “${collection.name}”`)
        onDeleted?.(collection)
        onClose()
      }}
    />
  )
}
