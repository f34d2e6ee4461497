// The PDF grid reader's cost on the financebench filings (12 born-digital PDFs, 1,477 pages):
// the pages whose text rebuild leaves lines of cells as prose (where extraction reads the
// drawing, see packages/core/src/extract/pdf-grid-reader.ts), the CPU time of reading their
// drawing next to that of reading their text, and the pages where a ruled grid is found. The
// drawing is read as extraction reads it: the grid screen first (pdf-rule-screen.ts), pdf.js's
// operator list where the screen cannot rule a grid out (`operatorListPages`).
// CPU time (this process's user + system) is the figure to compare: the machine is shared.
// Run: node bench/pdf-grids.ts   (last line: JSON)
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { openPdf } from '@sourcebook/core/extract/pdf'
import { PdfFile } from '@sourcebook/core/extract/pdf-file'
import { cellLinesLeft, ruledGrids } from '@sourcebook/core/extract/pdf-grid-reader'
import { positionedLines } from '@sourcebook/core/extract/pdf-lines'
import { mayHoldGrid } from '@sourcebook/core/extract/pdf-rule-screen'
import { rebuildTables } from '@sourcebook/core/extract/pdf-tables'

const folder = fileURLToPath(new URL('../../shared/data/financebench-pdfs/', import.meta.url))
const files = readFileSync(`${folder}pages.tsv`, 'utf8')
  .trim()
  .split('\n')
  .map((line) => line.split('\t')[1]!)
const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

let pages = 0
let textCpuMs = 0
let readPages = 0
let readPagesTextCpuMs = 0
let drawingCpuMs = 0
let operatorList = 0
const gridPages: string[] = []
for (const file of files) {
  // Opened as extraction opens it (its images left out).
  const bytes = new Uint8Array(readFileSync(`${folder}${file}`))
  const doc = await openPdf(bytes)
  let drawings: PdfFile | undefined
  for (let number = 1; number <= doc.numPages; number++) {
    const page = await doc.getPage(number)
    const started = cpuMs()
    const { items } = await page.getTextContent()
    const positioned = positionedLines(items)
    const lines = rebuildTables(positioned)
    const text = cpuMs() - started
    pages++
    textCpuMs += text
    if (cellLinesLeft(positioned, lines)) {
      const drawing = cpuMs()
      drawings ??= await PdfFile.open(bytes).catch(() => undefined)
      const grids = await ruledGrids(page, drawings)
      drawingCpuMs += cpuMs() - drawing
      // Counted apart, outside the timing: whether pdf.js's operator list was read.
      if (!drawings || (await mayHoldGrid(drawings, page.ref!).catch(() => true))) operatorList++
      readPages++
      readPagesTextCpuMs += text
      if (grids.length > 0) gridPages.push(`${file} p${number}`)
    }
    page.cleanup()
  }
  await doc.loadingTask.destroy()
}

console.log(`grids on: ${gridPages.join(', ')}`)
console.log(
  JSON.stringify({
    bench: 'pdf-grids',
    pages,
    textCpuMs: Math.round(textCpuMs),
    drawingReadPages: readPages,
    drawingReadPagesTextCpuMs: Math.round(readPagesTextCpuMs),
    drawingCpuMs: Math.round(drawingCpuMs),
    drawingMsPerPage: Number((drawingCpuMs / Math.max(1, readPages)).toFixed(1)),
    operatorListPages: operatorList,
    gridPages: gridPages.length,
  }),
)
