import { ArrowUpRightIcon, TriangleAlertIcon } from 'lucide-react'
import { Link } from 'react-router'
import { SidePanel } from '@/components/layout/side-panel'
import { Button } from '@/components/ui/button'
import type { Citation } from '@/features/chat/api/types'
import { PassagePreview } from '@/features/documents/components/passage-preview'
import { usePassageTypes } from '@/hooks/use-passage-types'
import { placeLabel } from '@/lib/format'
import { documentHref } from '@/lib/links'

type CitedPassageProps = {
  workspaceId: string
  citation: Citation
  /** Changes with the citation shown: focus moves into the panel again. */
  citationKey: string
  onClose: () => void
}

/** A citation's passage beside the conversation, and the way to the whole document. */
export function CitedPassage({ workspaceId, citation, citationKey, onClose }: CitedPassageProps) {
  const types = usePassageTypes([citation])
  const pages = placeLabel(types.get(citation.document_id), citation.page_start, citation.page_end)
  const cited =
    citation.char_start != null && citation.char_end != null
      ? { start: citation.char_start, end: citation.char_end }
      : null
  return (
    <SidePanel
      title={citation.title ?? 'Untitled document'}
      description={`Source ${citation.n}${pages ? ` · ${pages}` : ''}`}
      onClose={onClose}
      focusKey={citationKey}
      footer={
        <Button asChild variant="outline" className="w-full">
          <Link to={documentHref(workspaceId, citation.document_id, citation.chunk_id)}>
            Open the full document
            <ArrowUpRightIcon aria-hidden />
          </Link>
        </Button>
      }
    >
      {citation.supported === false ? (
        <p className="mb-3 flex items-center gap-1.5 text-xs font-medium text-amber-700 dark:text-amber-300">
          <TriangleAlertIcon className="size-3.5" aria-hidden />
          Not supported by the cited passage
        </p>
      ) : null}
      <PassagePreview
        key={citationKey}
        documentId={citation.document_id}
        chunkId={citation.chunk_id}
        cited={cited}
        quote={citation.quote ?? null}
      />
    </SidePanel>
  )
}
