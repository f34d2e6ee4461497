import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { PDFDocument } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { buildPdf } from '../testing/build-pdf.ts'
import { scoreFixture, TEST_PAGES } from '../testing/ocr-fixtures.ts'
import { scannedPdf } from '../testing/scanned-pdf.ts'
import { sharedData } from '../testing/shared-data.ts'
import { extractDocument } from './extract-document.ts'
import { createNodeOcr } from './ocr-node.ts'

// Scans made here from born-digital pages (200 dpi renders in an image-only PDF), read back by
// tesseract.js in Node. A page takes 5–15 s on two busy cores, so `npm test` checks a few;
// `npm run eval:ocr` scores more.
const OCR_TIMEOUT = 180_000

describe('OCR of scanned PDFs', () => {
  for (const fixture of TEST_PAGES) {
    it(
      `reads ${fixture.file} p.${fixture.page} with ≥ 95 % word accuracy`,
      { timeout: OCR_TIMEOUT },
      async () => {
        const score = await scoreFixture(fixture, createNodeOcr)
        console.log(`${fixture.file} p.${fixture.page}: ${(score.accuracy * 100).toFixed(1)} %`)
        expect(score.accuracy).toBeGreaterThanOrEqual(0.95)
      },
    )
  }

  it(
    'a mixed PDF: OCR reads only the page without text, page numbers kept',
    { timeout: OCR_TIMEOUT },
    async () => {
      const source = new Uint8Array(
        readFileSync(
          fileURLToPath(new URL('docling-testdata/pdf/sources/multi_page.pdf', sharedData)),
        ),
      )
      const scan = await PDFDocument.load(await scannedPdf(source, [1]))
      const mixed = await PDFDocument.create()
      const born = await PDFDocument.load(
        buildPdf({ pages: ['Born digital first page.', 'And the third.'] }),
      )
      const [first, third] = await mixed.copyPages(born, [0, 1])
      const [scanned] = await mixed.copyPages(scan, [0])
      mixed.addPage(first!)
      mixed.addPage(scanned!)
      mixed.addPage(third!)
      const seen: string[] = []
      const doc = await extractDocument(
        { bytes: await mixed.save(), fileName: 'mixed.pdf' },
        {
          ocr: {
            engine: createNodeOcr,
            onPage: (index, total) => seen.push(`${index}/${total}`),
          },
        },
      )
      expect(seen).toEqual(['1/1'])
      expect(doc.ocr?.map((page) => page.number)).toEqual([2])
      const pageText = (n: number) => doc.text.slice(doc.pages[n - 1]!.start, doc.pages[n - 1]!.end)
      expect(pageText(1)).toBe('Born digital first page.')
      expect(pageText(3)).toBe('And the third.')
      expect(pageText(2).length).toBeGreaterThan(200)
      // The page's text is its OCR lines, each with a box inside the page.
      const lines = doc.ocr![0]!.lines
      expect(pageText(2)).toContain(lines[0]!.text)
      for (const { box } of lines) {
        const [left, top, right, bottom] = box
        expect(
          0 <= left && left < right && right <= 1 && 0 <= top && top < bottom && bottom <= 1,
        ).toBe(true)
      }
      expect(doc.warnings).toContain('1 page read by OCR')
    },
  )

  it('a blank page without text is not worth OCR: Tesseract is never started', async () => {
    const doc = await extractDocument(
      { bytes: buildPdf({ pages: ['A page with text.', ''] }), fileName: 'blank.pdf' },
      {
        ocr: {
          engine: () => Promise.reject(new Error('OCR should not start')),
          onPage: () => {
            throw new Error('no page should be recognised')
          },
        },
      },
    )
    expect(doc.ocr).toBeUndefined()
    expect(doc.warnings).toContain('1 page without text')
  })

  it(
    'without an OCR engine a scan is still refused; a cancelled OCR throws the abort',
    { timeout: OCR_TIMEOUT },
    async () => {
      const source = new Uint8Array(
        readFileSync(
          fileURLToPath(new URL('docling-testdata/pdf/sources/multi_page.pdf', sharedData)),
        ),
      )
      const scan = await scannedPdf(source, [1, 2])
      await expect(extractDocument({ bytes: scan, fileName: 'scan.pdf' })).rejects.toMatchObject({
        code: 'no_text_layer',
      })
      // Cancelled while page 1 is being recognised: it stops then, not after the page.
      const controller = new AbortController()
      const started: number[] = []
      let abortedAt = 0
      const reading = extractDocument(
        { bytes: scan, fileName: 'scan.pdf' },
        {
          ocr: {
            engine: createNodeOcr,
            signal: controller.signal,
            onPage: (index) => {
              started.push(index)
              setTimeout(() => {
                abortedAt = performance.now()
                controller.abort()
              }, 1500)
            },
          },
        },
      )
      await expect(reading).rejects.toMatchObject({ name: 'AbortError' })
      expect(performance.now() - abortedAt).toBeLessThan(3000)
      expect(started).toEqual([1])
    },
  )
})
