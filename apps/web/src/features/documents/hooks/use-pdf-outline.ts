import type { PDFDocumentProxy } from 'pdfjs-dist'
import { useEffect, useState } from 'react'

/** A bookmark of the PDF: its title, the page it opens (null: none, e.g. a web link), children. */
export type OutlineEntry = { title: string; page: number | null; items: OutlineEntry[] }

type RawOutline = Awaited<ReturnType<PDFDocumentProxy['getOutline']>>

/** The 1-based page a destination (named, or explicit with a page reference or index) opens. */
async function destinationPage(pdf: PDFDocumentProxy, dest: RawOutline[number]['dest']) {
  try {
    const explicit = typeof dest === 'string' ? await pdf.getDestination(dest) : dest
    const target: unknown = explicit?.[0]
    if (typeof target === 'number') return target + 1
    if (target && typeof target === 'object' && 'num' in target && 'gen' in target)
      return (await pdf.getPageIndex(target as { num: number; gen: number })) + 1
  } catch {
    // A broken destination leaves its entry as a plain title.
  }
  return null
}

function resolve(pdf: PDFDocumentProxy, nodes: RawOutline): Promise<OutlineEntry[]> {
  return Promise.all(
    nodes.map(async (node) => ({
      title: node.title,
      page: await destinationPage(pdf, node.dest),
      items: await resolve(pdf, node.items),
    })),
  )
}

/** The PDF's outline (bookmarks) with pages resolved; empty when it has none. */
export function usePdfOutline(pdf: PDFDocumentProxy | null) {
  const [outline, setOutline] = useState<OutlineEntry[]>([])
  useEffect(() => {
    if (!pdf) return
    let cancelled = false
    pdf
      .getOutline()
      .then((nodes) => (nodes?.length ? resolve(pdf, nodes) : []))
      .then((entries) => !cancelled && setOutline(entries))
      .catch(() => !cancelled && setOutline([]))
    return () => {
      cancelled = true
    }
  }, [pdf])
  return outline
}
