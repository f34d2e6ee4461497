import type * as React from 'react'
import type { DocumentDetail } from '../api/get-document'
import { DocumentMeta } from './document-meta'

/** The title (wrapping: file names run long), its facts, and the actions a role allows. */
export function DocumentHeader({
  doc,
  interrupted,
  actions,
}: {
  doc: DocumentDetail
  /** Processing, but its import stopped: see isInterrupted. */
  interrupted: boolean
  actions: React.ReactNode
}) {
  return (
    <section
      aria-label="Document details"
      className="flex flex-wrap items-start justify-between gap-4 border-b px-4 py-5 sm:px-8"
    >
      <div className="min-w-0 flex-1 basis-80">
        <h1 className="text-xl font-semibold tracking-tight break-words">{doc.title}</h1>
        <DocumentMeta doc={doc} interrupted={interrupted} />
      </div>
      <div className="flex flex-wrap gap-2">{actions}</div>
    </section>
  )
}
