import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
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
import {
  type DocumentTitleInput,
  documentTitleSchema,
  useRenameDocument,
} from '../api/rename-document'

function RenameForm({ id, title, onDone }: { id: string; title: string; onDone: () => void }) {
  const rename = useRenameDocument({ onSuccess: onDone })
  const form = useForm<DocumentTitleInput>({
    resolver: zodResolver(documentTitleSchema),
    defaultValues: { title },
  })
  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={form.handleSubmit((input) => rename.mutate({ id, ...input }))}
    >
      <FormField id="document-title" label="Title" error={form.formState.errors.title?.message}>
        <Input autoComplete="off" {...form.register('title')} />
      </FormField>
      <DialogFooter>
        <Button type="submit" disabled={rename.isPending}>
          {rename.isPending ? 'Saving…' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  )
}

type RenameDocumentDialogProps = {
  id: string
  title: string
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Where focus goes back to on closing (the menu that opened it is gone by then). */
  onCloseAutoFocus: (event: Event) => void
}

/** Renames a document for everyone in the workspace (editors and owners). */
export function RenameDocumentDialog(props: RenameDocumentDialogProps) {
  const { id, title, open, onOpenChange, onCloseAutoFocus } = props
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Rename document</DialogTitle>
          <DialogDescription>
            The title everyone sees in the library, search and chat.
          </DialogDescription>
        </DialogHeader>
        {/* Mounted while open only, so each opening starts from the current title. */}
        {open ? <RenameForm id={id} title={title} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  )
}
