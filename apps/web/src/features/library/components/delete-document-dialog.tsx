import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog'
import { Button } from '@/components/ui/button'
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
    <AlertDialog open={!!document} onOpenChange={(open) => (open ? null : onClose())}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete “{document?.title}”?</AlertDialogTitle>
          <AlertDialogDescription>
            The original file, its text and its passages are removed for everyone in the workspace.
            Answers that cited it keep their quotes but can no longer open it.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Keep</AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={() => document && remove.mutate(document.id, { onSuccess: onClose })}
          >
            {remove.isPending ? 'Deleting…' : 'Delete'}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}
