import type { PDFDocumentProxy } from 'pdfjs-dist'
import { useEffect, useRef, useState } from 'react'
import type { OcrPageLines } from '../api/get-ocr-lines'
import { type FindMatch, findMatches, type PageItem } from '../utils/find-in-pdf'

/** The matches of a search, and the one to start at: the first on or after the reader's page. */
export type FindResult = { matches: FindMatch[]; start: number }

type Searched = FindResult & {
  pdf: PDFDocumentProxy
  query: string
  ocrPages: OcrPageLines[] | undefined
}

const NOTHING: FindResult = { matches: [], start: -1 }

/** A scanned page's OCR lines as find's text items, one line each: its marks go on their boxes. */
const ocrItems = (lines: OcrPageLines['lines']): PageItem[] =>
  lines.map((line) => ({ str: line.text, hasEOL: true }))

/**
 * Every match of `query` in the whole PDF, pages not drawn yet included: each page's text is
 * extracted once (the same items its text layer draws) and searched from then on. A scanned
 * page has no text layer: its OCR lines are searched instead.
 */
export function usePdfFind(
  pdf: PDFDocumentProxy | null,
  query: string,
  page: number,
  ocrPages: OcrPageLines[] | undefined,
) {
  const texts = useRef(new WeakMap<PDFDocumentProxy, Map<number, PageItem[]>>())
  const [searched, setSearched] = useState<Searched | null>(null)
  // Read when a search ends, without searching again as the reader scrolls.
  const fromPage = useRef(page)
  useEffect(() => {
    fromPage.current = page
  })

  useEffect(() => {
    if (!pdf || !query.trim()) return
    let cancelled = false
    if (!texts.current.has(pdf)) texts.current.set(pdf, new Map())
    const cache = texts.current.get(pdf)!
    // Typing settles before a long document is read through.
    const timer = setTimeout(async () => {
      try {
        const scanned = new Map(ocrPages?.map((ocr) => [ocr.number, ocrItems(ocr.lines)]))
        for (let number = 1; number <= pdf.numPages && !cancelled; number++) {
          if (cache.has(number) || scanned.has(number)) continue
          const content = await (await pdf.getPage(number)).getTextContent()
          // The text layer draws a span for each text item (marked-content markers have no str).
          cache.set(
            number,
            content.items.filter((item) => 'str' in item),
          )
        }
        if (cancelled) return
        const pages = Array.from(
          { length: pdf.numPages },
          (_, i) => scanned.get(i + 1) ?? cache.get(i + 1) ?? [],
        )
        const matches = findMatches(pages, query)
        const after = matches.findIndex((match) => match.page >= fromPage.current)
        const start = matches.length ? Math.max(0, after) : -1
        setSearched({ pdf, query, ocrPages, matches, start })
      } catch {
        if (!cancelled) setSearched({ pdf, query, ocrPages, ...NOTHING })
      }
    }, 200)
    return () => {
      cancelled = true
      clearTimeout(timer)
    }
  }, [pdf, query, ocrPages])

  if (!pdf || !query.trim()) return { ...NOTHING, searching: false }
  if (searched?.pdf !== pdf || searched.query !== query || searched.ocrPages !== ocrPages)
    return { ...NOTHING, searching: true }
  return { matches: searched.matches, start: searched.start, searching: false }
}
