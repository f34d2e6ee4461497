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
  id: string
  title: string
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Where focus goes back to on closing (the menu that opened it is gone by then). */
  onCloseAutoFocus: (event: Event) => void
  onDeleted: () => void
}

/** Deletes the document, its original and its passages, after confirmation. */
export function DeleteDocumentDialog(props: DeleteDocumentDialogProps) {
  const { id, title, open, onOpenChange, onCloseAutoFocus, onDeleted } = props
  const remove = useDeleteDocument({ onSuccess: onDeleted })
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete “{title}”?</AlertDialogTitle>
          <AlertDialogDescription>
            The original file and every passage of it are deleted for everyone in the workspace;
            chat answers that cited it lose their link. This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={() => remove.mutate(id)}
          >
            {remove.isPending ? 'Deleting…' : 'Delete document'}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}
