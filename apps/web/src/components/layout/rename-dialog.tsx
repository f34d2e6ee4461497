import { useState } from 'react'
import type { z } from 'zod'
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

type RenameFormProps = {
  fieldId: string
  label: string
  value: string
  schema: z.ZodString
  saveLabel: string
  onSave: (title: string) => Promise<unknown>
  onDone: () => void
}

function RenameForm({ fieldId, label, value, schema, saveLabel, onSave, onDone }: RenameFormProps) {
  const [title, setTitle] = useState(value)
  const [problem, setProblem] = useState<string | undefined>()
  const [pending, setPending] = useState(false)
  const save = async () => {
    const parsed = schema.safeParse(title)
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message)
    setPending(true)
    try {
      await onSave(parsed.data)
      onDone()
    } catch {
      // The mutation's own toast says why; the dialog stays open to try again.
    } finally {
      setPending(false)
    }
  }
  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      <FormField id={fieldId} label={label} error={problem}>
        <Input
          autoComplete="off"
          autoFocus
          value={title}
          maxLength={schema.maxLength ?? undefined}
          onChange={(event) => {
            setTitle(event.target.value)
            setProblem(undefined)
          }}
        />
      </FormField>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : saveLabel}
        </Button>
      </DialogFooter>
    </form>
  )
}

type RenameDialogProps = {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Where focus goes back to on closing, when what opened it is gone by then. */
  onCloseAutoFocus?: (event: Event) => void
  /** The dialog's title (and accessible name), e.g. 'Rename document'. */
  heading: string
  description: string
  fieldId: string
  /** The field's label: 'Title' unless said otherwise. */
  label?: string
  /** The current title, which the field starts from at each opening. */
  value: string
  /** Checks the new title; its maximum length also caps the field. */
  schema: z.ZodString
  saveLabel?: string
  /** Saves the checked title; the dialog closes once it resolves. */
  onSave: (title: string) => Promise<unknown>
}

/** A dialog with one field (a Title by default) that renames something. */
export function RenameDialog({
  open,
  onOpenChange,
  onCloseAutoFocus,
  heading,
  description,
  saveLabel = 'Save',
  label = 'Title',
  ...form
}: RenameDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>{heading}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {/* Mounted while open only, so each opening starts from the current title. */}
        {open ? (
          <RenameForm
            {...form}
            label={label}
            saveLabel={saveLabel}
            onDone={() => onOpenChange(false)}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  )
}
