import { createCanvas } from '@napi-rs/canvas'
import { PDFDocument } from 'pdf-lib'
import { createIsomorphicCanvasFactory, getDocumentProxy } from 'unpdf'

/**
 * Test-only: a "scan" of chosen pages of a PDF. Each page is drawn at `dpi` with pdf.js and
 * @napi-rs/canvas and placed as one PNG filling a page of the same size, so the result has
 * pictures of text and no text layer at all, like a scanner's output.
 */
export async function scannedPdf(
  source: Uint8Array,
  pages: number[],
  dpi = 200,
): Promise<Uint8Array> {
  await createIsomorphicCanvasFactory(async () => import('@napi-rs/canvas'))
  const doc = await getDocumentProxy(source.slice(), { verbosity: 0 })
  const out = await PDFDocument.create()
  try {
    for (const number of pages) {
      const page = await doc.getPage(number)
      const size = page.getViewport({ scale: 1 })
      const viewport = page.getViewport({ scale: dpi / 72 })
      const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height))
      const context = canvas.getContext('2d')
      context.fillStyle = '#ffffff'
      context.fillRect(0, 0, canvas.width, canvas.height)
      await page.render({
        canvas: canvas as unknown as HTMLCanvasElement,
        canvasContext: context as unknown as CanvasRenderingContext2D,
        viewport,
      }).promise
      const image = await out.embedPng(await canvas.encode('png'))
      out.addPage([size.width, size.height]).drawImage(image, {
        x: 0,
        y: 0,
        width: size.width,
        height: size.height,
      })
    }
  } finally {
    await doc.loadingTask.destroy()
  }
  return out.save()
}
