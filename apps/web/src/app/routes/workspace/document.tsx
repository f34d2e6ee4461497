import { useNavigate, useParams, useSearchParams } from 'react-router'
import { DocumentPage } from '@/features/documents/components/document-page'
import { useWorkspaceContext } from './context'

export default function DocumentRoute() {
  const { workspace } = useWorkspaceContext()
  const { documentId = '' } = useParams()
  const [searchParams, setSearchParams] = useSearchParams()
  const navigate = useNavigate()
  const libraryHref = `/w/${workspace.id}/library`
  return (
    <DocumentPage
      key={documentId}
      documentId={documentId}
      chunkId={searchParams.get('chunk')}
      canEdit={workspace.role !== 'viewer'}
      libraryHref={libraryHref}
      onClearPassage={() => setSearchParams({}, { replace: true })}
      onDeleted={() => void navigate(libraryHref, { replace: true })}
    />
  )
}
