// One extraction thread of the importer's pool: extracts and chunks the files it is sent, and
// reads scanned PDF pages by OCR (tesseract.js, its data from node_modules).
import { parentPort } from 'node:worker_threads'
import { ExtractError } from '../../packages/core/src/extract/errors.ts'
import { createNodeOcr } from '../../packages/core/src/extract/ocr-node.ts'
import { usePdfjsOwnInflate } from '../../packages/core/src/extract/pdfjs-own-inflate.ts'
import type { ExtractInput } from '../../packages/core/src/extract/types.ts'
import { processFile } from '../../packages/core/src/ingest/process-file.ts'

usePdfjsOwnInflate()

parentPort!.on('message', async (input: ExtractInput) => {
  try {
    parentPort!.postMessage({ processed: await processFile(input, {}, { engine: createNodeOcr }) })
  } catch (error) {
    const code = error instanceof ExtractError ? error.code : undefined
    const message = error instanceof Error ? error.message : String(error)
    parentPort!.postMessage({ error: { code, message } })
  }
})
