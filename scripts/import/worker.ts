// One extraction thread of the importer's pool: extracts and chunks the files it is sent.
import { parentPort } from 'node:worker_threads'
import { ExtractError } from '../../packages/core/src/extract/errors.ts'
import type { ExtractInput } from '../../packages/core/src/extract/types.ts'
import { processFile } from '../../packages/core/src/ingest/process-file.ts'

parentPort!.on('message', async (input: ExtractInput) => {
  try {
    parentPort!.postMessage({ processed: await processFile(input) })
  } catch (error) {
    const code = error instanceof ExtractError ? error.code : undefined
    const message = error instanceof Error ? error.message : String(error)
    parentPort!.postMessage({ error: { code, message } })
  }
})
