import { parseSnippet } from '../utils/snippet'

/**
 * A snippet with its matched terms in <mark>, built as React elements, never as HTML; its line
 * breaks (between records, rows and paragraphs) shown, three lines at most, so a page of
 * results stays scannable on a phone.
 */
export function Snippet({ snippet }: { snippet: string }) {
  return (
    <p className="text-muted-foreground line-clamp-3 text-sm leading-relaxed whitespace-pre-line">
      {parseSnippet(snippet).map((part, i) =>
        part.match ? (
          <mark key={i} className="bg-primary/15 text-foreground rounded-sm px-0.5">
            {part.text}
          </mark>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  )
}
