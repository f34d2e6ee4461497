import { createCanvas } from '@napi-rs/canvas'
import { PDFDocument } from 'pdf-lib'
import { createIsomorphicCanvasFactory, getDocumentProxy } from 'unpdf'

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>

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
  const out = await PDFDocument.create()
  await withPdf(source, async (doc) => {
    for (const number of pages) {
      const { png, width, height } = await drawPage(doc, number, dpi)
      const image = await out.embedPng(png)
      out.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height })
    }
  })
  return out.save()
}

/** One page of a PDF drawn at `dpi`, as PNG bytes (to look at a page beside its extraction). */
export async function pagePng(source: Uint8Array, number: number, dpi = 200): Promise<Uint8Array> {
  return withPdf(source, async (doc) => (await drawPage(doc, number, dpi)).png)
}

async function withPdf<T>(source: Uint8Array, use: (doc: PdfDocument) => Promise<T>): Promise<T> {
  await createIsomorphicCanvasFactory(async () => import('@napi-rs/canvas'))
  const doc = await getDocumentProxy(source.slice(), { verbosity: 0 })
  try {
    return await use(doc)
  } finally {
    await doc.loadingTask.destroy()
  }
}

/** The page on a white background at `dpi`, with its size in points. */
async function drawPage(doc: PdfDocument, number: number, dpi: number) {
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
  return { png: await canvas.encode('png'), width: size.width, height: size.height }
}
