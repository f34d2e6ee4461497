import { MessageSquareTextIcon } from 'lucide-react'
import { useEffect } from 'react'
import { useNavigate, useParams, useSearchParams } from 'react-router'
import { Button } from '@/components/ui/button'
import { useStartConversation } from '@/features/chat/hooks/use-start-conversation'
import { DocumentPage } from '@/features/documents/components/document-page'
import { ReplaceDocumentButton } from '@/features/upload/components/replace-document-button'
import { useUploads } from '@/features/upload/hooks/use-uploads'
import { documentHref } from '@/lib/links'
import { useWorkspaceContext } from './context'

/**
 * Opens the new version once this tab's replacement of the document is ready. Watched here,
 * not in the Replace button: the swap deletes the old row, whose page then unmounts the button.
 */
function useFollowReplacement(workspaceId: string, documentId: string) {
  const navigate = useNavigate()
  const { items } = useUploads(workspaceId)
  const newId = items.findLast(
    (item) => item.kind === 'replace' && item.replacesId === documentId && item.state === 'ready',
  )?.documentId
  useEffect(() => {
    if (newId) void navigate(documentHref(workspaceId, newId), { replace: true })
  }, [navigate, newId, workspaceId])
}

export default function DocumentRoute() {
  const { workspace } = useWorkspaceContext()
  const { documentId = '' } = useParams()
  const [searchParams, setSearchParams] = useSearchParams()
  const navigate = useNavigate()
  const libraryHref = `/w/${workspace.id}/library`
  useFollowReplacement(workspace.id, documentId)
  const { items } = useUploads(workspace.id)
  const ingesting = items.some((i) => i.state === 'running' && i.documentId === documentId)
  const conversation = useStartConversation(workspace.id)
  return (
    <DocumentPage
      key={documentId}
      documentId={documentId}
      chunkId={searchParams.get('chunk')}
      canEdit={workspace.role !== 'viewer'}
      ingesting={ingesting}
      libraryHref={libraryHref}
      actions={(doc) => (
        <Button
          variant="outline"
          disabled={conversation.starting}
          onClick={() => conversation.start(undefined, { documentIds: [doc.id] })}
        >
          <MessageSquareTextIcon aria-hidden /> Ask about it
        </Button>
      )}
      editActions={(doc) => (
        <ReplaceDocumentButton workspaceId={workspace.id} documentId={doc.id} title={doc.title} />
      )}
      onClearPassage={() => setSearchParams({}, { replace: true })}
      onDeleted={() => void navigate(libraryHref, { replace: true })}
    />
  )
}
