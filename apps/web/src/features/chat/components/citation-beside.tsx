import type * as React from 'react'
import { useMessages } from '../api/get-messages'
import type { Citation } from '../api/types'
import { CitationOpener, useOpenCitation } from '../hooks/use-open-citation'

type CitationBesideProps = {
  conversationId: string
  /**
   * The open citation's passage (composed by the route, which knows how to show a document's
   * passage); `key` changes with the citation.
   */
  renderCitation: (citation: Citation, key: string, close: () => void) => React.ReactNode
  children: React.ReactNode
}

/**
 * A conversation with the passage its citation chips and sources open, beside it: the
 * conversation stays mounted, so it keeps its place and scroll. Citations are looked up in
 * the stored answers (an answer still streaming has its citations once it is stored).
 */
export function CitationBeside({ conversationId, renderCitation, children }: CitationBesideProps) {
  const messages = useMessages(conversationId)
  const open = useOpenCitation(messages.data ?? [])
  return (
    <CitationOpener value={open.show}>
      <div className="flex h-full min-h-0">
        <div className="min-h-0 min-w-0 flex-1">{children}</div>
        {open.citation ? renderCitation(open.citation, open.key, open.close) : null}
      </div>
    </CitationOpener>
  )
}
