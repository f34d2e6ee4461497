// OCR in the ingest worker: pdf.js draws a scanned page on an OffscreenCanvas, tesseract.js
// recognises it in a worker of its own. Every file it needs is one of this build's assets (no
// CDN): its worker script, the SIMD LSTM-only core (WebAssembly SIMD runs in every current
// browser; the relaxed-SIMD build does not), and the English LSTM data (best_int; served by
// tesseract-data.ts under its own name).
import type { OcrEngine, RecognisedLine } from '@sourcebook/core/extract/ocr'
import { TESSERACT_OPTIONS } from '@sourcebook/core/extract/ocr'
import { createWorker, OEM } from 'tesseract.js'
import workerUrl from 'tesseract.js/dist/worker.min.js?url'
import coreUrl from 'tesseract.js-core/tesseract-core-simd-lstm.wasm.js?url'
import { TESSDATA_DIR } from './tessdata-dir'

/** pdf.js's scratch canvases, which its default factory would make with `document`. */
export class OffscreenCanvasFactory {
  create(width: number, height: number) {
    const canvas = new OffscreenCanvas(width, height)
    return { canvas, context: canvas.getContext('2d', { willReadFrequently: true }) }
  }

  reset(target: { canvas: OffscreenCanvas }, width: number, height: number) {
    target.canvas.width = width
    target.canvas.height = height
  }

  destroy(target: { canvas: OffscreenCanvas | null; context: unknown }) {
    if (target.canvas) {
      target.canvas.width = 0
      target.canvas.height = 0
    }
    target.canvas = null
    target.context = null
  }
}

export async function createBrowserOcr(): Promise<OcrEngine> {
  const worker = await createWorker('eng', OEM.LSTM_ONLY, {
    ...TESSERACT_OPTIONS,
    langPath: new URL(`${import.meta.env.BASE_URL}${TESSDATA_DIR}`, self.location.href).href,
    workerPath: new URL(workerUrl, self.location.href).href,
    corePath: new URL(coreUrl, self.location.href).href,
    // A blob: worker would need blob: in worker-src; the script is same-origin anyway.
    workerBlobURL: false,
  })
  return {
    surface(width, height) {
      const canvas = new OffscreenCanvas(width, height)
      return {
        canvas,
        context: canvas.getContext('2d'),
        png: async () =>
          new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer()),
      }
    },
    async recognise(png) {
      // tesseract.js reads bytes as they are (its types list Node's Buffer, not Uint8Array).
      const image = png as unknown as Parameters<typeof worker.recognize>[0]
      const { data: page } = await worker.recognize(image, {}, { blocks: true })
      return (page.blocks ?? []).flatMap((block) =>
        block.paragraphs.flatMap((paragraph) => paragraph.lines as RecognisedLine[]),
      )
    },
    close: async () => {
      await worker.terminate()
    },
  }
}
