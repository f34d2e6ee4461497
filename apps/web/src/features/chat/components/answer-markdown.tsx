import { memo } from 'react'
import Markdown, { type Components } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import type { Citation } from '../api/types'
import { citeNumber, linkCitations, safeUrl } from '../utils/citations'
import { CitationChip } from './citation-chip'

type AnswerMarkdownProps = {
  content: string
  citations: Citation[]
  workspaceId: string
  messageId: string
}

// Markdown without raw HTML (react-markdown never renders it) and without images (an answer
// could otherwise load any URL); links open elsewhere and leak nothing.
const prose =
  'text-sm leading-relaxed break-words [&_p]:my-2 first:[&_p]:mt-0 last:[&_p]:mb-0 [&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-5 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-5 [&_li]:my-0.5 [&_h1]:mt-3 [&_h1]:text-base [&_h1]:font-semibold [&_h2]:mt-3 [&_h2]:font-semibold [&_h3]:mt-2 [&_h3]:font-medium [&_code]:bg-muted [&_code]:rounded [&_code]:px-1 [&_code]:text-[0.8rem] [&_pre]:bg-muted [&_pre]:my-2 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:p-3 [&_blockquote]:text-muted-foreground [&_blockquote]:border-l-2 [&_blockquote]:pl-3 [&_table]:my-2 [&_table]:block [&_table]:overflow-x-auto [&_td]:border [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:px-2 [&_th]:py-1 [&_th]:text-left'

/** An answer's Markdown, rendered safely, with its `[n]` markers as citation chips. */
export const AnswerMarkdown = memo(function AnswerMarkdown({
  content,
  citations,
  workspaceId,
  messageId,
}: AnswerMarkdownProps) {
  const components: Components = {
    a({ href, children }) {
      const n = citeNumber(href)
      if (n !== null) {
        return (
          <CitationChip
            n={n}
            citation={citations.find((c) => c.n === n)}
            workspaceId={workspaceId}
            messageId={messageId}
          />
        )
      }
      if (!href) return <span>{children}</span>
      return (
        <a
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          className="text-primary underline underline-offset-2"
        >
          {children}
        </a>
      )
    },
  }
  return (
    <div className={prose}>
      <Markdown
        remarkPlugins={[remarkGfm]}
        urlTransform={safeUrl}
        disallowedElements={['img']}
        unwrapDisallowed
        components={components}
      >
        {linkCitations(content)}
      </Markdown>
    </div>
  )
})
