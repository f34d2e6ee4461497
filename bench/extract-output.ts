// The full output of PDF extraction and chunking, one line per page and per chunk, on every PDF
// of the financebench filings, its distractors and docling's test set, to diff two checkouts:
// a speed change must leave it byte for byte the same.
// Run: npm run bench:extract-output -- OUT.txt   (in each checkout), then diff the two files
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chunkDocument } from '@sourcebook/core/chunk/chunk-document'
import { extractDocument } from '@sourcebook/core/extract/extract-document'

const out = process.argv[2]
if (!out) throw new Error('usage: node bench/extract-output.ts OUT.txt')
const data = fileURLToPath(new URL('../../shared/data/', import.meta.url))
const folders = [
  'financebench-pdfs',
  'financebench-distractors',
  'docling-testdata/pdf/sources',
].map((folder) => `${data}${folder}/`)

const lines: string[] = []
let pages = 0
for (const folder of folders) {
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith('.pdf'))
    .sort()) {
    const bytes = new Uint8Array(readFileSync(`${folder}${file}`))
    const doc = await extractDocument({ bytes, fileName: file }).catch((error: Error) => error)
    if (doc instanceof Error) {
      lines.push(`${file}\terror\t${doc.message}`)
      continue
    }
    lines.push(
      `${file}\tdocument\t${JSON.stringify({ ...doc, text: undefined, pages: undefined })}`,
    )
    for (const { number, start, end } of doc.pages) {
      lines.push(`${file}\tpage ${number}\t${JSON.stringify(doc.text.slice(start, end))}`)
    }
    for (const chunk of chunkDocument(doc)) {
      lines.push(`${file}\tchunk ${chunk.ordinal}\t${JSON.stringify(chunk)}`)
    }
    pages += doc.pages.length
  }
}
writeFileSync(out, `${lines.join('\n')}\n`)
console.log(JSON.stringify({ bench: 'extract-output', pages, lines: lines.length, out }))
