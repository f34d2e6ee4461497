/**
 * Which financebench pages' tables change with a change to the PDF table rebuild: extract every
 * filing's pages with the code of this checkout, save their tables, and list the pages whose
 * tables differ from a saved run (of the code before the change).
 *
 *   node scripts/eval/table-diff.ts --save before.json           (on the old code)
 *   node scripts/eval/table-diff.ts --save after.json --against before.json
 *   node scripts/eval/table-diff.ts --render FILE.pdf:52 --out page.png   (to look at a page)
 *
 * Prints one line per changed page (file, page, tables before → after), then a JSON summary.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { extractPdf } from '../../packages/core/src/extract/pdf.ts'
import { pagePng } from '../../packages/core/src/testing/scanned-pdf.ts'
import { sharedData } from '../../packages/core/src/testing/shared-data.ts'
import { markdownTables } from '../../packages/core/src/testing/table-cells.ts'

const { values } = parseArgs({
  options: {
    save: { type: 'string' },
    against: { type: 'string' },
    render: { type: 'string' },
    out: { type: 'string', default: 'page.png' },
    show: { type: 'string' },
  },
})
const folder = fileURLToPath(new URL('financebench-pdfs/', sharedData))

if (values.render) {
  const [file, page] = values.render.split(':')
  const bytes = new Uint8Array(readFileSync(join(folder, file!)))
  writeFileSync(values.out!, await pagePng(bytes, Number(page), 110))
  process.exit(0)
}

/** File → per page, the page's tables as Markdown (one string per table). */
type Tables = Record<string, string[][]>

const tablesOf = (text: string) =>
  markdownTables(text).map((table) => table.map((row) => `| ${row.join(' | ')} |`).join('\n'))

const current: Tables = {}
for (const file of readdirSync(folder)
  .filter((name) => name.endsWith('.pdf'))
  .sort()) {
  const doc = await extractPdf(new Uint8Array(readFileSync(join(folder, file))))
  current[file] = doc.pages.map((range) => tablesOf(doc.text.slice(range.start, range.end)))
}
if (values.save) writeFileSync(values.save, JSON.stringify(current))

if (values.against) {
  const before = JSON.parse(readFileSync(values.against, 'utf8')) as Tables
  let pages = 0
  const changed: string[] = []
  for (const [file, filePages] of Object.entries(current)) {
    filePages.forEach((tables, i) => {
      pages++
      const old = before[file]?.[i] ?? []
      if (old.join('\n\n') === tables.join('\n\n')) return
      changed.push(`${file}:${i + 1}`)
      console.log(`${file} p${i + 1}: ${old.length} tables -> ${tables.length}`)
      if (values.show === `${file}:${i + 1}` || values.show === 'all') {
        console.log(`--- before\n${old.join('\n\n')}\n--- after\n${tables.join('\n\n')}\n`)
      }
    })
  }
  console.log(JSON.stringify({ pages, changed: changed.length }))
}
