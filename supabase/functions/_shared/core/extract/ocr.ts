// Generated from packages/core/src/extract/ocr.ts by `npm run sync:core`: edit that file, not this one.
import type { getDocumentProxy } from 'unpdf'
import { type LayoutLine, readingOrder } from './ocr-columns.ts'

type PdfPage = Awaited<ReturnType<Awaited<ReturnType<typeof getDocumentProxy>>['getPage']>>

/**
 * 200 dpi: Tesseract's LSTM reads 10 pt body text best at a 20–40 px x-height, which 200 dpi
 * gives (≈ 28 px for 10 pt); 300 dpi reads no better on clean scans but has 2.25× the pixels
 * to render and recognise, and OCR time grows with them.
 */
export const OCR_DPI = 200

/** One line Tesseract found: its text and box as fractions of the page (top-left origin). */
export interface OcrLine {
  text: string
  /** [left, top, right, bottom], each 0..1 of the page's width or height. */
  box: [number, number, number, number]
}

/** A page that had no text layer and was recognised; its text is its lines joined by \n. */
export interface OcrPage {
  number: number
  lines: OcrLine[]
}

/** A canvas this environment draws a page on, and its pixels as a PNG for Tesseract. */
export interface OcrSurface {
  canvas: unknown
  context: unknown
  png(): Promise<Uint8Array>
}

/** Tesseract's line output: text with a pixel box, and its words with theirs. */
export type RecognisedLine = LayoutLine

/**
 * What OCR needs from its environment: a canvas (OffscreenCanvas in the browser's worker,
 * @napi-rs/canvas in Node) and a Tesseract worker whose files are served by us.
 */
export interface OcrEngine {
  surface(width: number, height: number): OcrSurface
  recognise(png: Uint8Array): Promise<RecognisedLine[]>
  /** Ends the Tesseract worker (a worker thread keeps Node's process alive). */
  close(): Promise<void>
}

/** How extractPdf reads pages without text: the engine, per-page progress, cancel. */
export interface PdfOcrOptions {
  /** Made on first need (a scanned page), so born-digital PDFs never load Tesseract. */
  engine: () => Promise<OcrEngine>
  /**
   * pdf.js's canvas factory for this environment, where its default does not work: a Web
   * Worker has no `document` to make the scratch canvases a page render needs.
   */
  CanvasFactory?: unknown
  /** Before page `index` (1-based) of the `total` pages to recognise. */
  onPage?: (index: number, total: number) => void
  signal?: AbortSignal
}

/** Renders a page at OCR_DPI and recognises it; boxes become fractions of the page. */
export async function recognisePage(
  page: PdfPage,
  engine: OcrEngine,
  signal?: AbortSignal,
): Promise<OcrLine[]> {
  const viewport = page.getViewport({ scale: OCR_DPI / 72 })
  const width = Math.ceil(viewport.width)
  const height = Math.ceil(viewport.height)
  const surface = engine.surface(width, height)
  const context = surface.context as CanvasRenderingContext2D
  // Scans may be transparent where nothing was painted: Tesseract needs white paper.
  context.fillStyle = '#ffffff'
  context.fillRect(0, 0, width, height)
  await page.render({
    canvas: surface.canvas as HTMLCanvasElement,
    canvasContext: context,
    viewport,
  }).promise
  const png = await surface.png()
  // A cancel while drawing has ended the engine: it must not be handed another page.
  signal?.throwIfAborted()
  const lines = readingOrder(await engine.recognise(png), width)
  return lines
    .map((line) => ({ text: line.text.replace(/\s+/g, ' ').trim(), bbox: line.bbox }))
    .filter((line) => /[\p{L}\p{N}]/u.test(line.text))
    .map(({ text, bbox }) => ({
      text,
      box: [bbox.x0 / width, bbox.y0 / height, bbox.x1 / width, bbox.y1 / height],
    }))
}

/** The Tesseract parameters both environments use: English, LSTM only, no files written. */
export const TESSERACT_OPTIONS = { cacheMethod: 'none', gzip: true } as const
