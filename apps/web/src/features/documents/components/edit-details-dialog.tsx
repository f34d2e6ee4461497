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
  type DocumentDetailsInput,
  documentDetailsSchema,
  useSetDocumentDetails,
} from '../api/set-document-details'

type EditDetailsDialogProps = {
  id: string
  periods: string[]
  names: string[]
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Where focus goes back to on closing (the menu that opened it is gone by then). */
  onCloseAutoFocus: (event: Event) => void
}

type DetailsFormProps = Pick<EditDetailsDialogProps, 'id' | 'periods' | 'names'> & {
  onDone: () => void
}

function DetailsForm({ id, periods, names, onDone }: DetailsFormProps) {
  const save = useSetDocumentDetails()
  const form = useForm<DocumentDetailsInput>({
    resolver: zodResolver(documentDetailsSchema),
    defaultValues: { periods: periods.join(', '), names: names.join(', ') },
  })
  const { errors, isSubmitting } = form.formState
  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={form.handleSubmit(async (input) => {
        try {
          await save.mutateAsync({ id, ...input })
          onDone()
        } catch {
          // The mutation's toast says why (with Retry); the dialog stays open to try again.
        }
      })}
    >
      <FormField
        id="document-periods"
        label="Period"
        error={errors.periods?.message}
        hint="Years, quarters or dates, separated by commas: FY2019, Q2 2023."
      >
        <Input autoComplete="off" autoFocus {...form.register('periods')} />
      </FormField>
      <FormField
        id="document-names"
        label="Names"
        error={errors.names?.message}
        hint="Companies, organisations or parties it is about, separated by commas."
      >
        <Input autoComplete="off" {...form.register('names')} />
      </FormField>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  )
}

/**
 * Edits what a document covers (editors and owners): its periods and the names it is about,
 * detected at import. Search favours the document for questions that name them.
 */
export function EditDetailsDialog({
  open,
  onOpenChange,
  onCloseAutoFocus,
  ...details
}: EditDetailsDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Edit details</DialogTitle>
          <DialogDescription>
            Search favours this document for questions that name its period or names.
          </DialogDescription>
        </DialogHeader>
        {/* Mounted while open only, so each opening starts from the saved details. */}
        {open ? <DetailsForm {...details} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  )
}
