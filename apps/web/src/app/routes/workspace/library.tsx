import { FolderOpenIcon, UploadIcon } from 'lucide-react'
import { EmptyState } from '@/components/layout/empty-state'
import { PageHeader } from '@/components/layout/page-header'
import { Button } from '@/components/ui/button'
import { useWorkspaceContext } from './context'

export default function LibraryRoute() {
  const { workspace } = useWorkspaceContext()
  const canUpload = workspace.role !== 'viewer'
  return (
    <>
      <PageHeader title="Library" description="Every document in this workspace." />
      <EmptyState
        icon={FolderOpenIcon}
        title="No documents yet"
        action={
          canUpload ? (
            <div className="grid justify-items-center gap-2">
              <Button disabled aria-describedby="upload-soon">
                <UploadIcon /> Upload documents
              </Button>
              <p id="upload-soon" className="text-muted-foreground text-xs">
                Uploading arrives in the next release.
              </p>
            </div>
          ) : null
        }
      >
        {canUpload
          ? 'Soon you’ll drop PDFs, Word files, Markdown, HTML and text files here; Sourcebook reads them, keeps their pages and makes them searchable for everyone in the workspace.'
          : 'Documents that editors upload will appear here, ready to read, search and ask questions about.'}
      </EmptyState>
    </>
  )
}
