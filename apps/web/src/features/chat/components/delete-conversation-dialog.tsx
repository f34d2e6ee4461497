import { ConfirmDialog } from '@/components/layout/confirm-dialog'
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
  const who = conversation?.visibility === 'shared' ? ' for everyone in the workspace' : ''
  return (
    <ConfirmDialog
      open={conversation !== null}
      onOpenChange={(open) => !open && onClose()}
      title={`Delete “${conversation?.title ?? ''}”?`}
      description={`Its questions and answers are deleted${who}. This cannot be undone.`}
      confirmLabel="Delete"
      pendingLabel="Deleting…"
      cancelLabel="Keep it"
      destructive
      onConfirm={async () => {
        if (conversation) await remove.mutateAsync(conversation)
      }}
    />
  )
}
