// Generated from packages/core/src/extract/pdf-grid-reader.ts by `npm run sync:core`: edit that file, not this one.
import { getResolvedPDFJS, type getDocumentProxy } from 'unpdf'
import type { PdfFile } from './pdf-file.ts'
import { findGrids, type Grid } from './pdf-grid.ts'
import type { PositionedLine } from './pdf-lines.ts'
import { mayHoldGrid } from './pdf-rule-screen.ts'
import { pageRules } from './pdf-rules.ts'

type PdfPage = Awaited<ReturnType<Awaited<ReturnType<typeof getDocumentProxy>>['getPage']>>

/**
 * Whether the rebuild left lines of cells as prose: two lines of two or more cells, one of three
 * or more (pages with a stray two-part line, a heading and its page number, are many). Only then
 * is the page's drawing read: that costs as much again as its text.
 */
export function cellLinesLeft(positioned: PositionedLine[], lines: string[]): boolean {
  const prose = new Set(lines)
  const left = positioned.filter((line) => line.segments.length >= 2 && prose.has(line.text))
  return left.length >= 2 && left.some((line) => line.segments.length >= 3)
}

/**
 * The grids of cell borders the page draws (see pdf-grid.ts). Annotations are left out: their
 * appearances (form fields, stamps) are not the page's drawing, their text is not in the text
 * content the grid places, and evaluating them costs time on every form-heavy page. With the
 * document's `file`, pages whose content streams show no grid can be drawn are not evaluated
 * (pdf-rule-screen.ts); a page the screen cannot read is.
 */
export async function ruledGrids(page: PdfPage, file?: PdfFile): Promise<Grid[]> {
  if (file && page.ref && !(await mayHoldGrid(file, page.ref).catch(() => true))) return []
  const { OPS, AnnotationMode } = await getResolvedPDFJS()
  const { fnArray, argsArray } = await page.getOperatorList({
    annotationMode: AnnotationMode.DISABLE,
  })
  return findGrids(pageRules(fnArray, argsArray, OPS))
}
