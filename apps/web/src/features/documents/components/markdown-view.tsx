import { useMemo } from 'react'
import Markdown from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { rehypeMarkRange } from '../utils/rehype-mark-range'
import { passageMarkClass } from './passage-mark'

// Headings, lists, tables and code from Word, HTML and Markdown documents, in the app's type.
const proseClass = [
  'max-w-none text-[15px] leading-relaxed break-words',
  '[&_h1]:mt-8 [&_h1]:mb-3 [&_h1]:text-2xl [&_h1]:font-semibold',
  '[&_h2]:mt-7 [&_h2]:mb-3 [&_h2]:text-xl [&_h2]:font-semibold',
  '[&_h3]:mt-6 [&_h3]:mb-2 [&_h3]:text-lg [&_h3]:font-semibold',
  '[&_h4]:mt-5 [&_h4]:mb-2 [&_h4]:font-semibold',
  '[&_p]:my-3 [&_ul]:my-3 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-3 [&_ol]:list-decimal [&_ol]:pl-6',
  '[&_li]:my-1 [&_a]:text-primary [&_a]:underline [&_hr]:my-6',
  '[&_blockquote]:text-muted-foreground [&_blockquote]:border-l-2 [&_blockquote]:pl-4',
  '[&_code]:bg-muted [&_code]:rounded [&_code]:px-1 [&_code]:font-mono [&_code]:text-[13px]',
  '[&_pre]:bg-muted [&_pre]:my-3 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:p-3',
  '[&_table]:my-4 [&_table]:block [&_table]:overflow-x-auto [&_table]:text-sm',
  '[&_table:focus-visible]:outline-ring [&_table:focus-visible]:outline-2',
  '[&_th]:border [&_th]:px-2 [&_th]:py-1 [&_th]:text-left [&_th]:font-medium',
  '[&_td]:border [&_td]:px-2 [&_td]:py-1 [&_td]:align-top',
].join(' ')

type MarkdownViewProps = { markdown: string; range: { start: number; end: number } | null }

/**
 * The extracted Markdown rendered safely (no raw HTML: it is skipped, never injected), with
 * the text whose source lies in the passage's range marked.
 */
export function MarkdownView({ markdown, range }: MarkdownViewProps) {
  const start = range?.start
  const end = range?.end
  const rehypePlugins = useMemo(
    () => [rehypeMarkRange(start === undefined || end === undefined ? null : { start, end })],
    [start, end],
  )
  return (
    <div className={proseClass}>
      <Markdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={rehypePlugins}
        components={{
          mark: ({ node: _node, ...props }) => <mark {...props} className={passageMarkClass} />,
          // A table wider than the page scrolls in its own box: focusable, so keys scroll it too.
          table: ({ node: _node, ...props }) => <table {...props} tabIndex={0} />,
        }}
        skipHtml
      >
        {markdown}
      </Markdown>
    </div>
  )
}
