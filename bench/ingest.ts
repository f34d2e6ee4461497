// End-to-end ingestion throughput on the financebench filings (12 born-digital PDFs, 1,477
// pages): a fresh localbase in a child process, a user and a workspace made through
// supabase-js, then the importer's own logic (worker-thread extraction pool, concurrent
// uploads and inserts, RLS on). Prints pages/s end to end and per stage, next to the rate of
// extraction + chunking alone on the same pool (no database). Target: >= 50 pages/s end to
// end on 2 cores. Then OCR: scans of BENCH_OCR_PAGES filing pages (default 4; 200 dpi renders
// in image-only PDFs, one page per file) through the same pool, as pages/s.
// Run: node bench/ingest.ts   (last line: JSON)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { scannedPdf } from '../packages/core/src/testing/scanned-pdf.ts'
import { runImport } from '../scripts/import/run-import.ts'
import { walk } from '../scripts/import/walk.ts'
import { WorkerPool } from '../scripts/import/worker-pool.ts'
import { freePort, root, signUpMember, startLocalbase } from './load-setup.ts'

const folder = join(root, '../shared/data/financebench-pdfs')

const { files } = await walk(folder)
const threads = Math.max(1, Math.min(availableParallelism(), files.length))
const pool = new WorkerPool(threads)
const perSecond = (pages: number, ms: number) => Number(((pages * 1000) / ms).toFixed(1))
const ownCpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}
/** A child's user + system CPU time from /proc (Linux), in ms. */
const childCpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
}

// Extraction + chunking alone, on the same pool, all files in flight (also warms pdf.js and
// the tokenizer in every thread before the timed import).
let started = performance.now()
const alone = await Promise.all(
  files.map(async (file) =>
    pool.process({
      bytes: new Uint8Array(await readFile(file.path)),
      fileName: basename(file.path),
    }),
  ),
)
const aloneMs = performance.now() - started
const alonePages = alone.reduce((sum, p) => sum + p.pageCount, 0)

const port = await freePort()
const url = `http://127.0.0.1:${port}`
const dataDir = mkdtempSync(join(tmpdir(), 'sourcebook-bench-ingest-'))
const localbase = await startLocalbase(port, dataDir)
try {
  const { member: supabase, newWorkspace } = await signUpMember(url)
  const workspaceId = await newWorkspace('Bench')

  started = performance.now()
  const [importerCpu, localbaseCpu] = [ownCpuMs(), childCpuMs(localbase.pid!)]
  const totals = await runImport(supabase, {
    workspaceId,
    files,
    process: pool.process,
    concurrency: threads * 2,
    onFile: (t, file) => console.log(`[${t.done}/${t.total}] ${t.pages} pages  ${file.name}`),
  })
  const elapsedMs = performance.now() - started
  const importerCpuMs = ownCpuMs() - importerCpu
  const localbaseCpuMs = childCpuMs(localbase.pid!) - localbaseCpu
  if (totals.failures.length > 0) throw new Error(JSON.stringify(totals.failures))

  // OCR after the timed import, so the born-digital numbers are as before. Pages 3, 4, …
  // of the filings in turn: body text, past the cover pages.
  const ocrPages = Number(process.env.BENCH_OCR_PAGES ?? 4)
  const scans = await Promise.all(
    Array.from({ length: ocrPages }, async (_, i) =>
      scannedPdf(new Uint8Array(await readFile(files[i % files.length]!.path)), [3 + i]),
    ),
  )
  started = performance.now()
  const recognised = await Promise.all(
    scans.map((bytes, i) => pool.process({ bytes, fileName: `scan-${i}.pdf` })),
  )
  const ocrMs = performance.now() - started
  if (recognised.some((p) => p.ocr?.length !== 1)) throw new Error('a scan was not read by OCR')

  const { timings, pages } = totals
  const result = {
    bench: 'ingest',
    files: files.length,
    pages,
    chunks: totals.chunks,
    threads,
    elapsedMs: Math.round(elapsedMs),
    pagesPerSec: perSecond(pages, elapsedMs),
    // Per stage: pages over the stage's time summed across files (one lane's rate).
    extractPagesPerSec: perSecond(pages, timings.extractMs),
    chunkPagesPerSec: perSecond(pages, timings.chunkMs),
    storeIndexPagesPerSec: perSecond(pages, timings.uploadMs + timings.indexMs),
    extractChunkAlonePagesPerSec: perSecond(alonePages, aloneMs),
    // Load-independent: CPU seconds spent (importer with its threads, and localbase) per
    // page, as a rate on `threads` otherwise idle cores.
    importerCpuMs: Math.round(importerCpuMs),
    localbaseCpuMs: Math.round(localbaseCpuMs),
    pagesPerCpuBoundSec: perSecond(pages * threads, importerCpuMs + localbaseCpuMs),
    ocrPages,
    ocrPagesPerSec: Number(((ocrPages * 1000) / ocrMs).toFixed(3)),
  }
  console.log(
    `end to end ${result.pagesPerSec} pages/s (${pages} pages, ${totals.chunks} chunks, ` +
      `${(elapsedMs / 1000).toFixed(1)} s, ${threads} extraction threads)\n` +
      `per stage (per lane): extract ${result.extractPagesPerSec}, chunk ${result.chunkPagesPerSec}, ` +
      `store+index ${result.storeIndexPagesPerSec} pages/s\n` +
      `extraction + chunking alone on the pool: ${result.extractChunkAlonePagesPerSec} pages/s\n` +
      `CPU: importer ${(importerCpuMs / 1000).toFixed(1)} s, localbase ` +
      `${(localbaseCpuMs / 1000).toFixed(1)} s: ${result.pagesPerCpuBoundSec} pages/s on ${threads} idle cores\n` +
      `OCR of scanned pages (extraction + chunking on the pool): ${result.ocrPagesPerSec} ` +
      `pages/s (${ocrPages} pages, ${(ocrMs / 1000).toFixed(1)} s)`,
  )
  console.log(JSON.stringify(result))
} finally {
  await pool.close()
  localbase.kill()
  await new Promise((resolve) => localbase.once('exit', resolve))
  rmSync(dataDir, { recursive: true, force: true })
}
