import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { z } from 'zod'
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
import { titleSchema, useRenameDocument } from '../api/rename-document'

const schema = z.object({ title: titleSchema })
type RenameInput = z.infer<typeof schema>

type RenameDocumentDialogProps = {
  workspaceId: string
  document: { id: string; title: string } | null
  onClose: () => void
}

export function RenameDocumentDialog({
  workspaceId,
  document,
  onClose,
}: RenameDocumentDialogProps) {
  return (
    <Dialog open={!!document} onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Rename document</DialogTitle>
          <DialogDescription>The title everyone in the workspace sees.</DialogDescription>
        </DialogHeader>
        {document ? (
          <RenameForm workspaceId={workspaceId} document={document} onDone={onClose} />
        ) : null}
      </DialogContent>
    </Dialog>
  )
}

function RenameForm({
  workspaceId,
  document,
  onDone,
}: {
  workspaceId: string
  document: { id: string; title: string }
  onDone: () => void
}) {
  const rename = useRenameDocument(workspaceId, { onSuccess: onDone })
  const form = useForm<RenameInput>({
    resolver: zodResolver(schema),
    defaultValues: { title: document.title },
  })
  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={form.handleSubmit(({ title }) => rename.mutate({ id: document.id, title }))}
    >
      <FormField id="document-title" label="Title" error={form.formState.errors.title?.message}>
        <Input autoComplete="off" autoFocus {...form.register('title')} />
      </FormField>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={rename.isPending}>
          {rename.isPending ? 'Saving…' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  )
}
