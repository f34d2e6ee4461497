import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Plugin } from 'vite'
import { TESSDATA_DIR } from './src/features/upload/worker/tessdata-dir'

/** The English LSTM data (best_int) of @tesseract.js-data/eng, from node_modules. */
function englishData(): Buffer {
  const require = createRequire(import.meta.url)
  const root = dirname(require.resolve('@tesseract.js-data/eng/package.json'))
  return readFileSync(join(root, '4.0.0_best_int', 'eng.traineddata.gz'))
}

/**
 * Serves OCR's language data at `TESSDATA_DIR/eng.traineddata.gz` (built into dist, and from
 * the dev server). tesseract.js loads a language from a folder by its file name, so the file
 * cannot take a hashed asset name; the folder is named for the data package's version instead.
 */
export function tesseractData(): Plugin {
  const path = `${TESSDATA_DIR}/eng.traineddata.gz`
  return {
    name: 'sourcebook:tesseract-data',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: path, source: englishData() })
    },
    configureServer(server) {
      server.middlewares.use(`/${path}`, (_request, response) => {
        response.setHeader('Content-Type', 'application/gzip')
        response.end(englishData())
      })
    },
  }
}
