import { RenameDialog } from '@/components/layout/rename-dialog'
import { titleSchema, useRenameDocument } from '../api/rename-document'

type RenameDocumentDialogProps = {
  workspaceId: string
  document: { id: string; title: string; file_name: string } | null
  onClose: () => void
}

export function RenameDocumentDialog({
  workspaceId,
  document,
  onClose,
}: RenameDocumentDialogProps) {
  const rename = useRenameDocument(workspaceId)
  return (
    <RenameDialog
      open={!!document}
      onOpenChange={(open) => (open ? null : onClose())}
      heading="Rename document"
      description={`The title everyone in the workspace sees. The file keeps its name${
        document ? `, “${document.file_name}”` : ''
      }.`}
      fieldId="document-title"
      value={document?.title ?? ''}
      schema={titleSchema}
      onSave={async (title) => {
        if (document) await rename.mutateAsync({ id: document.id, title })
      }}
    />
  )
}
