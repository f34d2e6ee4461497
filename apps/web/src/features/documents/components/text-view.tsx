import { splitPassage } from '../utils/split-passage'
import { cn } from '@/lib/utils'
import { PassageMark } from './passage-mark'

type TextViewProps = {
  text: string
  range: { start: number; end: number } | null
  monospace?: boolean
}

/** Plain text (and CSV records) as written, the passage's exact slice in a <mark>. */
export function TextView({ text, range, monospace }: TextViewProps) {
  const parts = range ? splitPassage(text, range.start, range.end) : null
  return (
    <pre
      className={cn(
        'text-sm leading-relaxed break-words whitespace-pre-wrap',
        monospace ? 'font-mono text-[13px]' : 'font-sans',
      )}
    >
      {parts ? (
        <>
          {parts.before}
          <PassageMark>{parts.passage}</PassageMark>
          {parts.after}
        </>
      ) : (
        text
      )}
    </pre>
  )
}
