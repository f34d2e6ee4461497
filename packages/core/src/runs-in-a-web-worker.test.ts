import { readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chunkDocument } from './chunk/chunk-document.ts'
import { extractDocument } from './extract/extract-document.ts'
import { sharedData } from './testing/shared-data.ts'

// The web app runs extraction in a Web Worker: no DOMParser there (linkedom and, for slides
// and sheets, xmldom step in), pdf.js without a worker of its own. Bundle the real code with
// Vite, run it in Chromium, and require the very same text, pages and chunks as in Node.
const files: Record<string, string> = {
  'AMCOR_2022_8K_dated-2022-07-01.pdf': 'financebench-pdfs/',
  'word_sample.docx': 'docling-testdata/docx/sources/',
  'wiki_duck.html': 'docling-testdata/html/sources/',
  'example_04.html': 'docling-testdata/html/sources/',
  'powerpoint_sample.pptx': 'docling-testdata/pptx/sources/',
  'pptx_chart.pptx': 'docling-testdata/pptx/sources/',
  'xlsx_01.xlsx': 'docling-testdata/xlsx/sources/',
  'xlsx_02_sample_sales_data.xlsm': 'docling-testdata/xlsx/sources/',
}
const pathOf = (name: string) => fileURLToPath(new URL(`${files[name]}${name}`, sharedData))

let outDir: string
let server: Server
let origin: string

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'core-web-worker-'))
  await build({
    root: fileURLToPath(new URL('./testing/web-worker/', import.meta.url)),
    configFile: false,
    logLevel: 'error',
    // @acemir/cssom's "browser" build (a linkedom dependency) is a bare script without exports.
    resolve: {
      alias: { '@acemir/cssom': createRequire(import.meta.url).resolve('@acemir/cssom') },
    },
    worker: { format: 'es' },
    build: { outDir, target: 'es2023', minify: false },
  })
  server = createServer(async (request, response) => {
    const { pathname } = new URL(request.url!, 'http://localhost')
    const name = decodeURIComponent(pathname.slice('/data/'.length))
    const path = pathname.startsWith('/data/')
      ? pathOf(name)
      : join(outDir, pathname === '/' ? 'index.html' : pathname)
    const body = await readFile(path).catch(() => undefined)
    const type = path.endsWith('.js')
      ? 'text/javascript'
      : path.endsWith('index.html')
        ? 'text/html'
        : 'application/octet-stream'
    response.writeHead(body ? 200 : 404, { 'content-type': type }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
}, 120_000)

afterAll(async () => {
  server?.close()
  if (outDir) await rm(outDir, { recursive: true, force: true })
})

describe('in a browser Web Worker', () => {
  it('extracts and chunks exactly as in Node', { timeout: 120_000 }, async () => {
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    })
    try {
      const page = await browser.newPage()
      const query = Object.keys(files)
        .map((name) => `file=${encodeURIComponent(name)}`)
        .join('&')
      await page.goto(`${origin}/?${query}`)
      const handle = await page.waitForFunction(
        () => (window as { results?: unknown }).results,
        undefined,
        {
          timeout: 100_000,
        },
      )
      const fromWorker = await handle.jsonValue()
      const inNode = await Promise.all(
        Object.keys(files).map(async (name) => {
          const doc = await extractDocument({
            bytes: new Uint8Array(readFileSync(pathOf(name))),
            fileName: name,
          })
          return { name, text: doc.text, pages: doc.pages, chunks: chunkDocument(doc) }
        }),
      )
      expect(fromWorker).toEqual(inNode)
    } finally {
      await browser.close()
    }
  })
})
