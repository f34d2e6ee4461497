// The grid screen's check (packages/core/src/extract/pdf-rule-screen.ts) on every page of the
// financebench filings, their distractors and docling's test PDFs (4,430 pages): on each page,
// pdf.js's operator list gives the ruled grids, and a page the screen clears must have none.
// `unsound` must be 0. Also counts the pages cleared (all, and those where extraction reads the
// drawing), the pages the screen could not read (left to pdf.js) by reason, and CPU time of the
// screen against the operator list's.
// Run: node bench/pdf-grid-screen.ts   (last line: JSON)
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { openPdf } from '@sourcebook/core/extract/pdf'
import { PdfFile } from '@sourcebook/core/extract/pdf-file'
import { cellLinesLeft, ruledGrids } from '@sourcebook/core/extract/pdf-grid-reader'
import { positionedLines } from '@sourcebook/core/extract/pdf-lines'
import { mayHoldGrid } from '@sourcebook/core/extract/pdf-rule-screen'
import { rebuildTables } from '@sourcebook/core/extract/pdf-tables'

const data = fileURLToPath(new URL('../../shared/data/', import.meta.url))
const folders = ['financebench-pdfs', 'financebench-distractors', 'docling-testdata/pdf/sources']
const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

const counts = { pages: 0, withGrids: 0, cleared: 0, read: 0, readCleared: 0, unsound: 0 }
const unread = new Map<string, number>()
let [screenCpuMs, operatorListCpuMs] = [0, 0]
for (const folder of folders) {
  for (const name of readdirSync(`${data}${folder}`)
    .filter((file) => file.endsWith('.pdf'))
    .sort()) {
    const bytes = new Uint8Array(readFileSync(`${data}${folder}/${name}`))
    const doc = await openPdf(bytes).catch(() => undefined)
    if (!doc) continue
    const file = await PdfFile.open(bytes).catch((error: Error) => error)
    for (let number = 1; number <= doc.numPages; number++) {
      const page = await doc.getPage(number)
      const { items } = await page.getTextContent()
      const positioned = positionedLines(items)
      const read = cellLinesLeft(positioned, rebuildTables(positioned))
      let started = cpuMs()
      const grids = await ruledGrids(page)
      operatorListCpuMs += cpuMs() - started
      started = cpuMs()
      const mayHold =
        file instanceof Error
          ? file
          : await mayHoldGrid(file, page.ref!).catch((error: Error) => error)
      screenCpuMs += cpuMs() - started
      counts.pages++
      if (read) counts.read++
      if (grids.length > 0) counts.withGrids++
      if (mayHold instanceof Error) {
        unread.set(mayHold.message, (unread.get(mayHold.message) ?? 0) + 1)
      } else if (!mayHold) {
        counts.cleared++
        if (read) counts.readCleared++
        if (grids.length > 0) {
          counts.unsound++
          console.log(`UNSOUND: ${name} p${number} cleared with ${grids.length} grids`)
        }
      }
      page.cleanup()
    }
    await doc.loadingTask.destroy()
  }
}

console.log(
  JSON.stringify({
    bench: 'pdf-grid-screen',
    ...counts,
    unread: Object.fromEntries(unread),
    screenCpuMs: Math.round(screenCpuMs),
    operatorListCpuMs: Math.round(operatorListCpuMs),
  }),
)
