import { type DocumentType, placeLabel } from '@/lib/format'
import type { Citation } from '../api/types'

const CITE = '#cite-'

/** `[1]: …` at the start of a line is a Markdown link reference definition, not a citation. */
function isDefinition(text: string, at: number, marker: string): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1
  return /^[ \t]{0,3}$/.test(text.slice(lineStart, at)) && text[at + marker.length] === ':'
}

/**
 * Turns the answer's `[n]` markers (and `[1, 2]` groups) into Markdown links to `#cite-n`,
 * which the renderer shows as citation chips. Code spans and fences are left alone, and so
 * are a real link (`[1](…)`) and a reference definition (`[1]: …` opening a line).
 */
export function linkCitations(markdown: string): string {
  return markdown
    .split(/(```[\s\S]*?(?:```|$)|`[^`\n]*`)/)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part.replace(
            /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\](?!\()/g,
            (marker: string, group: string, at: number, text: string) =>
              isDefinition(text, at, marker)
                ? marker
                : group
                    .split(',')
                    .map((n) => `[${n.trim()}](${CITE}${n.trim()})`)
                    .join(''),
          ),
    )
    .join('')
}

/** The number a chip link points at, or null for an ordinary link. */
export function citeNumber(href: string | undefined): number | null {
  if (!href?.startsWith(CITE)) return null
  const n = Number(href.slice(CITE.length))
  return Number.isInteger(n) ? n : null
}

/** How a chip names its source for people using a screen reader. */
export function citationLabel(citation: Citation, type: DocumentType | undefined): string {
  const pages = placeLabel(type, citation.page_start, citation.page_end)
  const parts = [`Source ${citation.n}: ${citation.title ?? 'Untitled document'}`]
  if (pages) parts.push(pages)
  if (citation.supported === false) parts.push('not supported by the cited passage')
  return parts.join(', ')
}

/** Only web and mail links leave the page; citation anchors stay; anything else is dropped. */
export function safeUrl(url: string): string | undefined {
  if (url.startsWith(CITE)) return url
  try {
    const parsed = new URL(url)
    return ['http:', 'https:', 'mailto:'].includes(parsed.protocol) ? url : undefined
  } catch {
    return undefined
  }
}
