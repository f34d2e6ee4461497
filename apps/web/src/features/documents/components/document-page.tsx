import { isInterrupted } from '@sourcebook/core/ingest/interrupted'
import type * as React from 'react'
import { PageSkeleton } from '@/components/layout/page-skeleton'
import { useDatabaseNow } from '@/hooks/use-database-now'
import { documentType, type DocumentType } from '@/lib/format'
import { useChunk } from '../api/get-chunk'
import { type DocumentDetail, useDocument } from '../api/get-document'
import { useDocumentRealtime } from '../hooks/use-document-realtime'
import { useElementHeight } from '../hooks/use-element-height'
import { DocumentContent } from './document-content'
import { DocumentEditActions } from './document-edit-actions'
import { DocumentHeader } from './document-header'
import {
  DocumentFailed,
  DocumentInterrupted,
  DocumentNotFound,
  DocumentProcessing,
} from './document-states'
import { DownloadButton } from './download-button'
import { PassageBanner } from './passage-banner'

type DocumentPageProps = {
  documentId: string
  /** The chunk whose passage to highlight, from `?chunk=`. */
  chunkId: string | null
  canEdit: boolean
  /** This tab is ingesting it: never shown as interrupted, however slow a stage. */
  ingesting?: boolean
  libraryHref: string
  /** Actions for every member composed by the route (e.g. Ask about it). */
  actions?: (doc: DocumentDetail) => React.ReactNode
  /** More editor actions composed by the route (e.g. Replace). */
  editActions?: (doc: DocumentDetail) => React.ReactNode
  onClearPassage: () => void
  onDeleted: () => void
}

const fileName = (doc: DocumentDetail) => doc.storage_path?.split('/').pop() || doc.title

/** A document's metadata, actions and content, opened at a highlighted passage. */
export function DocumentPage(props: DocumentPageProps) {
  const {
    documentId,
    chunkId,
    canEdit,
    ingesting = false,
    libraryHref,
    actions,
    editActions,
    onClearPassage,
    onDeleted,
  } = props
  const document = useDocument(documentId)
  const chunk = useChunk(documentId, chunkId)
  useDocumentRealtime(documentId)
  const [bannerRef, bannerHeight] = useElementHeight<HTMLDivElement>()
  const now = useDatabaseNow(15_000)

  if (document.isPending) return <PageSkeleton />
  const doc = document.data
  if (!doc) return <DocumentNotFound libraryHref={libraryHref} />
  const passage = chunk.data ?? null
  const interrupted = !ingesting && now !== null && isInterrupted(doc, now)
  return (
    // The banner sticks at the shell's --page-top (below the phone's app bar and the
    // connection bar, if shown); the PDF toolbar just under the banner, never over it.
    <div
      style={
        {
          '--pdf-sticky-top': `calc(var(--page-top) + ${bannerHeight}px)`,
        } as React.CSSProperties
      }
    >
      <DocumentHeader
        doc={doc}
        interrupted={interrupted}
        actions={
          <>
            {doc.status === 'ready' ? actions?.(doc) : null}
            {doc.storage_path ? (
              <DownloadButton path={doc.storage_path} fileName={fileName(doc)} />
            ) : null}
            {canEdit ? (
              <DocumentEditActions doc={doc} extra={editActions?.(doc)} onDeleted={onDeleted} />
            ) : null}
          </>
        }
      />
      {/* Stays in view while reading, so the highlight can always be cleared. */}
      <div ref={bannerRef} className="sticky top-(--page-top) z-20">
        {chunkId && doc.status === 'ready' ? (
          <PassageBanner
            passage={passage}
            pending={chunk.isPending}
            showText={documentType(doc) === 'pdf'}
            where={placeUnit(documentType(doc))}
            onClear={onClearPassage}
          />
        ) : null}
      </div>
      <div className="mx-auto max-w-4xl px-4 py-6 sm:px-8">
        {doc.status === 'failed' ? (
          <DocumentFailed doc={doc} />
        ) : interrupted ? (
          <DocumentInterrupted />
        ) : doc.status !== 'ready' ? (
          <DocumentProcessing doc={doc} />
        ) : chunk.isPending && chunkId ? (
          <PageSkeleton />
        ) : (
          <DocumentContent doc={doc} passage={passage} />
        )}
      </div>
    </div>
  )
}

/** What a passage's page number counts: slides in a presentation; a workbook has no pages. */
function placeUnit(type: DocumentType): 'page' | 'slide' | null {
  if (type === 'pptx') return 'slide'
  return type === 'xlsx' ? null : 'page'
}
