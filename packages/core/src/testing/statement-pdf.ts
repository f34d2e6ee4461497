import { buildPdf, type PdfRun } from './build-pdf.ts'

/** Helvetica's digits are 0.556 em wide: amounts right-aligned as a filing sets them. */
const right = (text: string, edge: number, y: number): PdfRun => ({
  x: edge - text.length * 5.56,
  y,
  text,
})

/**
 * Test-only: a one-page PDF with a paragraph and then an income-statement-like table of `rows`
 * line items (labels "Line item N", amounts for 2019 and 2018 under a year header row).
 */
export function statementPdf(rows: number): Uint8Array {
  const runs: PdfRun[] = [
    { x: 72, y: 760, text: 'Results of operations for the two years ended December 31 follow.' },
    { x: 360, y: 740, text: '2019' },
    { x: 450, y: 740, text: '2018' },
  ]
  for (let i = 0; i < rows; i++) {
    const y = 726 - i * 12
    runs.push({ x: 72, y, text: `Line item ${i + 1}` })
    runs.push(right(`${(1000 + i * 37).toLocaleString('en-US')}`, 382, y))
    runs.push(right(`${(900 + i * 29).toLocaleString('en-US')}`, 472, y))
  }
  return buildPdf({ pages: [runs] })
}
