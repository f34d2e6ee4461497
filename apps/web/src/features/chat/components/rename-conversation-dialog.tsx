import { useState } from 'react'
import { FormField } from '@/components/layout/form-field'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { updateConversationInputSchema, useUpdateConversation } from '../api/update-conversation'
import type { Conversation } from '../api/types'

type RenameConversationDialogProps = { conversation: Conversation | null; onClose: () => void }

export function RenameConversationDialog({ conversation, onClose }: RenameConversationDialogProps) {
  const update = useUpdateConversation()
  const [title, setTitle] = useState(conversation?.title ?? '')
  const [problem, setProblem] = useState<string | undefined>()
  return (
    <Dialog open={conversation !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Rename conversation</DialogTitle>
          <DialogDescription>Everyone it is shared with sees the new title.</DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault()
            if (!conversation) return
            const parsed = updateConversationInputSchema.safeParse({ id: conversation.id, title })
            if (!parsed.success) return setProblem(parsed.error.issues[0]?.message)
            update.mutate(parsed.data, { onSuccess: onClose })
          }}
        >
          <FormField id="conversation-title" label="Title" error={problem}>
            <Input
              value={title}
              maxLength={200}
              autoFocus
              onChange={(event) => {
                setTitle(event.target.value)
                setProblem(undefined)
              }}
            />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? 'Saving…' : 'Rename'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
