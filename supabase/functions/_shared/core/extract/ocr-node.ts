// Generated from packages/core/src/extract/ocr-node.ts by `npm run sync:core`: edit that file, not this one.
import { createRequire } from 'node:module'
import path from 'node:path'
import { createIsomorphicCanvasFactory } from 'unpdf'
import type { OcrEngine, RecognisedLine } from './ocr.ts'
import { TESSERACT_OPTIONS } from './ocr.ts'

const require = createRequire(import.meta.url)

/**
 * Node's OCR engine: pages drawn with @napi-rs/canvas (pdf.js's own Node canvas), recognised by
 * tesseract.js in a worker thread it spawns, with its core from node_modules and the English
 * LSTM data (best_int: LSTM-only, 2.9 MB) from @tesseract.js-data/eng. Nothing is fetched.
 */
export async function createNodeOcr(): Promise<OcrEngine> {
  const canvas = await import('@napi-rs/canvas')
  // Puts pdf.js's DOMMatrix, ImageData and Path2D in place for rendering in Node.
  await createIsomorphicCanvasFactory(async () => canvas)
  const { createWorker, OEM } = await import('tesseract.js')
  const langPath = path.join(
    path.dirname(require.resolve('@tesseract.js-data/eng/package.json')),
    '4.0.0_best_int',
  )
  const worker = await createWorker('eng', OEM.LSTM_ONLY, { ...TESSERACT_OPTIONS, langPath })
  return {
    surface(width, height) {
      const surface = canvas.createCanvas(width, height)
      return {
        canvas: surface,
        context: surface.getContext('2d'),
        png: async () => new Uint8Array(await surface.encode('png')),
      }
    },
    async recognise(png) {
      const { data } = await worker.recognize(Buffer.from(png), {}, { blocks: true })
      return (data.blocks ?? []).flatMap((block) =>
        block.paragraphs.flatMap((paragraph) => paragraph.lines as RecognisedLine[]),
      )
    },
    close: async () => {
      await worker.terminate()
    },
  }
}
