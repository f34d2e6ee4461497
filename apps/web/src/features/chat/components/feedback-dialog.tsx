import { useState } from 'react'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Label } from '@/components/ui/label'

type FeedbackDialogProps = {
  rating: 1 | -1 | null
  initialComment: string
  saving: boolean
  onSave: (comment: string) => void
  onClose: () => void
}

/** After a thumbs up or down: an optional comment on the answer. */
export function FeedbackDialog({
  rating,
  initialComment,
  saving,
  onSave,
  onClose,
}: FeedbackDialogProps) {
  const [comment, setComment] = useState(initialComment)
  return (
    <Dialog open={rating !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{rating === 1 ? 'What was good?' : 'What went wrong?'}</DialogTitle>
          <DialogDescription>
            Your rating is saved. Add a comment if you like: it helps tell good answers from bad.
          </DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-2"
          onSubmit={(event) => {
            event.preventDefault()
            onSave(comment)
          }}
        >
          <Label htmlFor="feedback-comment">Comment</Label>
          <textarea
            id="feedback-comment"
            value={comment}
            maxLength={2000}
            rows={4}
            onChange={(event) => setComment(event.target.value)}
            className="border-input focus-visible:border-ring focus-visible:ring-ring/50 dark:bg-input/30 rounded-md border bg-transparent px-3 py-2 text-sm shadow-xs outline-none focus-visible:ring-[3px]"
          />
          <DialogFooter className="mt-2">
            <Button type="button" variant="outline" onClick={onClose}>
              Skip
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? 'Saving…' : 'Save comment'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
