// One extraction thread of the importer's pool: extracts and chunks the files it is sent, and
// reads scanned PDF pages by OCR (tesseract.js, its data from node_modules).
import { setPriority } from 'node:os'
import { parentPort } from 'node:worker_threads'
import { ExtractError } from '../../packages/core/src/extract/errors.ts'
import { createNodeOcr } from '../../packages/core/src/extract/ocr-node.ts'
import { usePdfjsOwnInflate } from '../../packages/core/src/extract/pdfjs-own-inflate.ts'
import type { ExtractInput } from '../../packages/core/src/extract/types.ts'
import { processFile } from '../../packages/core/src/ingest/process-file.ts'

usePdfjsOwnInflate()
// Extraction is background work: on a machine it shares with the server (a team's server
// importing a folder), the server's requests come first. On Linux this lowers this thread
// alone. In bench:load, nice 10 took search p95 under load from 1.26-1.55 s to 0.88-0.99 s
// (three alternated pairs), the import under load as fast as before.
setPriority(0, 10)

parentPort!.on('message', async (input: ExtractInput) => {
  try {
    parentPort!.postMessage({ processed: await processFile(input, {}, { engine: createNodeOcr }) })
  } catch (error) {
    const code = error instanceof ExtractError ? error.code : undefined
    const message = error instanceof Error ? error.message : String(error)
    parentPort!.postMessage({ error: { code, message } })
  }
})
