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
import { useDeleteConversation } from '../api/delete-conversation'
import type { Conversation } from '../api/types'

type DeleteConversationDialogProps = {
  conversation: Conversation | null
  onClose: () => void
  onDeleted: (conversation: Conversation) => void
}

export function DeleteConversationDialog({
  conversation,
  onClose,
  onDeleted,
}: DeleteConversationDialogProps) {
  const remove = useDeleteConversation({
    onSuccess: (deleted) => {
      onClose()
      onDeleted(deleted)
    },
  })
  return (
    <AlertDialog open={conversation !== null} onOpenChange={(open) => !open && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete “{conversation?.title}”?</AlertDialogTitle>
          <AlertDialogDescription>
            {conversation?.visibility === 'shared'
              ? 'Its questions and answers are deleted for everyone in the workspace.'
              : 'Its questions and answers are deleted.'}{' '}
            This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Keep it</AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={() => conversation && remove.mutate(conversation)}
          >
            {remove.isPending ? 'Deleting…' : 'Delete'}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}
