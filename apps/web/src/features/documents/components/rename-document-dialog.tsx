import { RenameDialog } from '@/components/layout/rename-dialog'
import { documentTitleSchema, useRenameDocument } from '../api/rename-document'

type RenameDocumentDialogProps = {
  id: string
  title: string
  fileName: string
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Where focus goes back to on closing (the menu that opened it is gone by then). */
  onCloseAutoFocus: (event: Event) => void
}

/** Renames a document for everyone in the workspace (editors and owners). */
export function RenameDocumentDialog({
  id,
  title,
  fileName,
  ...dialog
}: RenameDocumentDialogProps) {
  const rename = useRenameDocument()
  return (
    <RenameDialog
      {...dialog}
      heading="Rename document"
      description={`The title everyone sees in the library, search and chat. The file keeps its name, “${fileName}”.`}
      fieldId="document-title"
      value={title}
      schema={documentTitleSchema.shape.title}
      onSave={(next) => rename.mutateAsync({ id, title: next })}
    />
  )
}
