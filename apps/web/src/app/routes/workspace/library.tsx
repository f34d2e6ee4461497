import { UploadIcon } from 'lucide-react'
import { useMemo } from 'react'
import { PageHeader } from '@/components/layout/page-header'
import { Button } from '@/components/ui/button'
import { UploadDropzone } from '@/features/upload/components/upload-dropzone'
import { UploadQueue } from '@/features/upload/components/upload-queue'
import { useRetryDocument } from '@/features/upload/hooks/use-retry-document'
import { useUploads } from '@/features/upload/hooks/use-uploads'
import { CollectionsLibrary } from './collections-library'
import { useWorkspaceContext } from './context'

const title = 'Library'
const description = 'Every document in this workspace.'

export default function LibraryRoute() {
  const { workspace } = useWorkspaceContext()
  return workspace.role === 'viewer' ? (
    <>
      <PageHeader title={title} description={description} />
      <CollectionsLibrary
        key={workspace.id}
        workspaceId={workspace.id}
        canEdit={false}
        empty={{
          description:
            'Documents that editors upload will appear here, ready to read, search and ask questions about.',
        }}
      />
    </>
  ) : (
    <EditorLibrary key={workspace.id} workspaceId={workspace.id} />
  )
}

/** Editors and owners: the whole page takes dropped files; uploads queue above the list. */
function EditorLibrary({ workspaceId }: { workspaceId: string }) {
  const { items } = useUploads(workspaceId)
  const { retry, input } = useRetryDocument(workspaceId)
  const running = items.flatMap((i) =>
    i.state === 'running' && i.documentId ? [i.documentId] : [],
  )
  // Keyed by the ids, so progress messages do not rebuild the list.
  const runningKey = running.join(' ')
  const busy = useMemo(() => new Set(runningKey.split(' ').filter(Boolean)), [runningKey])
  return (
    <UploadDropzone workspaceId={workspaceId}>
      {(open) => (
        <>
          <PageHeader
            title={title}
            description={description}
            actions={
              <Button onClick={open}>
                <UploadIcon aria-hidden /> Upload
              </Button>
            }
          />
          <UploadQueue workspaceId={workspaceId} />
          {input}
          <CollectionsLibrary
            workspaceId={workspaceId}
            canEdit
            busy={busy}
            onRetry={retry}
            empty={{
              description:
                'Drop PDFs, Word, PowerPoint and Excel files, Markdown, HTML, CSV and text files anywhere on this page, or choose them. Sourcebook reads them, keeps their pages and makes them searchable for everyone in the workspace.',
              action: (
                <Button variant="outline" onClick={open}>
                  <UploadIcon aria-hidden /> Choose files
                </Button>
              ),
            }}
          />
        </>
      )}
    </UploadDropzone>
  )
}
