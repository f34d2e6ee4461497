import { PageHeader } from '@/components/layout/page-header'
import { DocumentLibrary } from '@/features/library/components/document-library'
import { useWorkspaceContext } from './context'

export default function LibraryRoute() {
  const { workspace } = useWorkspaceContext()
  const canEdit = workspace.role !== 'viewer'
  return (
    <>
      <PageHeader title="Library" description="Every document in this workspace." />
      <DocumentLibrary
        key={workspace.id}
        workspaceId={workspace.id}
        canEdit={canEdit}
        empty={{
          description: canEdit
            ? 'Drop PDFs, Word files, Markdown, HTML, CSV and text files here; Sourcebook reads them, keeps their pages and makes them searchable for everyone in the workspace.'
            : 'Documents that editors upload will appear here, ready to read, search and ask questions about.',
        }}
      />
    </>
  )
}
