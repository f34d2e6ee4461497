import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  PDFDocument,
  closePath,
  concatTransformationMatrix,
  drawObject,
  fill,
  lineTo,
  moveTo,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  stroke,
  type PDFOperator,
} from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { sharedData } from '../testing/shared-data.ts'
import { openPdf } from './pdf.ts'
import { PdfFile } from './pdf-file.ts'
import { ruledGrids } from './pdf-grid-reader.ts'
import { mayHoldGrid } from './pdf-rule-screen.ts'

/** The screen's answer for a page next to the grids pdf.js's operator list gives. */
async function screened(bytes: Uint8Array, number = 1) {
  const doc = await openPdf(bytes)
  try {
    const page = await doc.getPage(number)
    const file = await PdfFile.open(bytes)
    return { mayHold: await mayHoldGrid(file, page.ref!), grids: (await ruledGrids(page)).length }
  } finally {
    await doc.loadingTask.destroy()
  }
}

/** Two rows by two columns of stroked cell borders, 80 by 40 pt, from the origin. */
const gridLines: PDFOperator[] = [
  ...[0, 20, 40].flatMap((y) => [moveTo(0, y), lineTo(80, y)]),
  ...[0, 40, 80].flatMap((x) => [moveTo(x, 0), lineTo(x, 40)]),
  stroke(),
]

/** A one-page PDF whose page draws `ops`, with the grid as a form (scaled 2x) it may draw. */
async function pdfWith(ops: (form: string) => PDFOperator[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([600, 800])
  const form = doc.context.register(
    doc.context.formXObject(gridLines, { BBox: [0, 0, 80, 40], Matrix: [2, 0, 0, 2, 0, 0] }),
  )
  const name = page.node.newXObject('Fm', form)
  page.pushOperators(...ops(name.asString().slice(1)))
  return doc.save()
}

/** A PDF of `objects` (numbered from 1) with its cross-reference table, written by hand. */
function handWritten(objects: string[]): Uint8Array {
  let text = '%PDF-1.4\n'
  const offsets = objects.map((body, i) => {
    const at = text.length
    text += `${i + 1} 0 obj\n${body}\nendobj\n`
    return at
  })
  const xref = text.length
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  text += offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('')
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return new TextEncoder().encode(text)
}

const real = (file: string) =>
  new Uint8Array(readFileSync(fileURLToPath(new URL(`financebench-pdfs/${file}`, sharedData))))

describe('mayHoldGrid', () => {
  it('follows a form XObject, its matrix and the transform it is drawn under', async () => {
    const placed = await pdfWith((form) => [
      pushGraphicsState(),
      concatTransformationMatrix(1, 0, 0, 1, 50, 100),
      drawObject(form),
      popGraphicsState(),
    ])
    expect(await screened(placed)).toEqual({ mayHold: true, grids: 1 })
    // Drawn at a twentieth of that, every border is shorter than a rule can be.
    const tiny = await pdfWith((form) => [
      concatTransformationMatrix(0.02, 0, 0, 0.02, 50, 100),
      drawObject(form),
    ])
    expect(await screened(tiny)).toEqual({ mayHold: false, grids: 0 })
  })

  it('reads filled rectangles as rules where the transform makes them thin, and a box as none', async () => {
    // Turned a quarter and squeezed tenfold along its x: 10 pt wide columns become 1 pt rows.
    const turned = await pdfWith(() => [
      concatTransformationMatrix(0, 0.1, -1, 0, 400, 100),
      ...[0, 300, 600].flatMap((x) => [rectangle(x, 0, 10, 121), fill()]),
      ...[0, 60, 120].flatMap((y) => [rectangle(0, y, 610, 1), fill()]),
    ])
    expect(await screened(turned)).toEqual({ mayHold: true, grids: 1 })
    const box = await pdfWith(() => [
      moveTo(100, 100),
      lineTo(300, 100),
      lineTo(300, 200),
      lineTo(100, 200),
      closePath(),
      stroke(),
    ])
    expect(await screened(box)).toEqual({ mayHold: false, grids: 0 })
  })

  it('decrypts an RC4-encrypted filing (empty user password) and clears its pages', async () => {
    // Netflix's 2015 10-K: page 17's text leaves cells as prose, its drawing holds no grid.
    expect(await screened(real('NETFLIX_2015_10K.pdf'), 17)).toEqual({ mayHold: false, grids: 0 })
  })

  it('refuses an object that needs itself to be read, rather than waiting for ever', async () => {
    // The page's content stream gives its own length as a reference to itself.
    const file = await PdfFile.open(
      handWritten([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>',
        '<< /Length 4 0 R >>\nstream\n0 0 m 100 0 l S\nendstream',
      ]),
    )
    await expect(mayHoldGrid(file, { num: 3, gen: 0 })).rejects.toThrow('object 4 cycles')
  })

  it('lets a real ruled table through (JPMorgan 10-Q p100)', async () => {
    const { mayHold, grids } = await screened(real('JPMORGAN_2021Q1_10Q.pdf'), 100)
    expect(grids).toBeGreaterThan(0)
    expect(mayHold).toBe(true)
  })
})
