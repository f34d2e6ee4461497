import { RenameDialog } from '@/components/layout/rename-dialog'
import { updateConversationInputSchema, useUpdateConversation } from '../api/update-conversation'
import type { Conversation } from '../api/types'

type RenameConversationDialogProps = { conversation: Conversation | null; onClose: () => void }

export function RenameConversationDialog({ conversation, onClose }: RenameConversationDialogProps) {
  const update = useUpdateConversation()
  return (
    <RenameDialog
      open={conversation !== null}
      onOpenChange={(open) => !open && onClose()}
      heading="Rename conversation"
      description="Everyone it is shared with sees the new title."
      fieldId="conversation-title"
      value={conversation?.title ?? ''}
      schema={updateConversationInputSchema.shape.title.unwrap()}
      saveLabel="Rename"
      onSave={async (title) => {
        if (conversation) await update.mutateAsync({ id: conversation.id, title })
      }}
    />
  )
}
