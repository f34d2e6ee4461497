// Extraction and chunking throughput on the financebench filings (12 born-digital PDFs, 1,477
// pages): pages/s for extraction alone, chunking alone, and both. One process, one core.
// Wall-clock rates suffer when the machine is shared; the CPU-time rates (this process's user +
// system time) are the load-independent figure. pdf.js inflates with its own code here, as in
// the importer's extraction threads (pdfjs-own-inflate.ts).
// Run: node bench/extract.ts   (last line: JSON)
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chunkDocument } from '@sourcebook/core/chunk/chunk-document'
import { extractDocument } from '@sourcebook/core/extract/extract-document'
import { usePdfjsOwnInflate } from '@sourcebook/core/extract/pdfjs-own-inflate'

const folder = fileURLToPath(new URL('../../shared/data/financebench-pdfs/', import.meta.url))
const files = readFileSync(`${folder}pages.tsv`, 'utf8')
  .trim()
  .split('\n')
  .map((line) => line.split('\t')[1]!)

usePdfjsOwnInflate()

// Warm-up: load pdf.js, mammoth-free paths and the tokenizer's ranks outside the timings.
chunkDocument(
  await extractDocument({
    bytes: new Uint8Array(readFileSync(`${folder}${files[0]}`)),
    fileName: files[0]!,
  }),
)

let pages = 0
let chunks = 0
let extractMs = 0
let chunkMs = 0
let extractCpuMs = 0
let chunkCpuMs = 0
const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}
for (const file of files) {
  const bytes = new Uint8Array(readFileSync(`${folder}${file}`))
  const [started, startedCpu] = [performance.now(), cpuMs()]
  const doc = await extractDocument({ bytes, fileName: file })
  const [extracted, extractedCpu] = [performance.now(), cpuMs()]
  const fileChunks = chunkDocument(doc)
  const [chunked, chunkedCpu] = [performance.now(), cpuMs()]
  extractMs += extracted - started
  chunkMs += chunked - extracted
  extractCpuMs += extractedCpu - startedCpu
  chunkCpuMs += chunkedCpu - extractedCpu
  pages += doc.pages.length
  chunks += fileChunks.length
  console.log(
    `${file.padEnd(40)} ${String(doc.pages.length).padStart(4)} pages ${String(fileChunks.length).padStart(5)} chunks` +
      `  extract ${(extracted - started).toFixed(0).padStart(6)} ms  chunk ${(chunked - extracted).toFixed(0).padStart(5)} ms`,
  )
}

const perSecond = (ms: number) => Number(((pages * 1000) / ms).toFixed(1))
console.log(
  JSON.stringify({
    bench: 'extract',
    files: files.length,
    pages,
    chunks,
    extractMs: Math.round(extractMs),
    chunkMs: Math.round(chunkMs),
    extractPagesPerSec: perSecond(extractMs),
    chunkPagesPerSec: perSecond(chunkMs),
    bothPagesPerSec: perSecond(extractMs + chunkMs),
    extractCpuMs: Math.round(extractCpuMs),
    chunkCpuMs: Math.round(chunkCpuMs),
    extractPagesPerCpuSec: perSecond(extractCpuMs),
    chunkPagesPerCpuSec: perSecond(chunkCpuMs),
    bothPagesPerCpuSec: perSecond(extractCpuMs + chunkCpuMs),
  }),
)
