import { RenameDialog } from '@/components/layout/rename-dialog'
import {
  documentPeriodsSchema,
  splitPeriods,
  useSetDocumentPeriods,
} from '../api/set-document-periods'

type EditPeriodsDialogProps = {
  id: string
  periods: string[]
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Where focus goes back to on closing (the menu that opened it is gone by then). */
  onCloseAutoFocus: (event: Event) => void
}

/** Edits the periods a document covers (editors and owners), as comma-separated text. */
export function EditPeriodsDialog({ id, periods, ...dialog }: EditPeriodsDialogProps) {
  const save = useSetDocumentPeriods()
  return (
    <RenameDialog
      {...dialog}
      heading="Edit period"
      description="The years, quarters or dates this document covers, separated by commas. Search favours it for questions that name them."
      fieldId="document-periods"
      label="Period"
      value={periods.join(', ')}
      schema={documentPeriodsSchema}
      onSave={(text) => save.mutateAsync({ id, periods: splitPeriods(text) })}
    />
  )
}
