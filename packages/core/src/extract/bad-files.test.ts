import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { buildPdf } from '../testing/build-pdf.ts'
import { buildZip } from '../testing/build-zip.ts'
import { sharedData } from '../testing/shared-data.ts'
import { ExtractError, type ExtractErrorCode } from './errors.ts'
import { extractDocument } from './extract-document.ts'
import type { ExtractInput, ExtractOptions } from './types.ts'

const realPdf = new Uint8Array(
  readFileSync(
    fileURLToPath(new URL('financebench-pdfs/AMCOR_2022_8K_dated-2022-07-01.pdf', sharedData)),
  ),
)
const realDocx = new Uint8Array(
  readFileSync(
    fileURLToPath(new URL('docling-testdata/docx/sources/word_sample.docx', sharedData)),
  ),
)

async function failure(input: ExtractInput, options?: ExtractOptions): Promise<ExtractError> {
  const error = await extractDocument(input, options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(ExtractError)
  return error as ExtractError
}

async function expectCode(input: ExtractInput, code: ExtractErrorCode, message?: RegExp) {
  const error = await failure(input)
  expect(error.code).toBe(code)
  if (message) expect(error.message).toMatch(message)
}

describe('files that cannot be extracted', () => {
  it('empty file', () =>
    expectCode({ bytes: new Uint8Array(), fileName: 'a.pdf' }, 'empty_file', /empty/))

  it('a text file of whitespace only', () =>
    expectCode({ bytes: new TextEncoder().encode(' \n\t\n'), fileName: 'a.txt' }, 'empty_file'))

  it('truncated PDF (a real filing cut in half)', () =>
    expectCode(
      { bytes: realPdf.subarray(0, realPdf.length >> 1), fileName: 'amcor.pdf' },
      'corrupt',
      /truncated/,
    ))

  it('PDF whose body is garbage between a valid header and %%EOF', () => {
    const garbage = new Uint8Array(4000).map((_, i) => (i * 7919) % 251)
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('%PDF-1.7\n'),
      ...garbage,
      ...new TextEncoder().encode('\n%%EOF\n'),
    ])
    return expectCode({ bytes, fileName: 'broken.pdf' }, 'corrupt', /damaged/)
  })

  it('encrypted PDF (Standard security handler, unknown user password)', async () => {
    const bytes = buildPdf({ pages: ['Secret plans'], encrypted: true })
    await expectCode({ bytes, fileName: 'locked.pdf' }, 'encrypted', /password/)
    // The same file without /Encrypt reads fine: the error is about encryption only.
    const open = await extractDocument({
      bytes: buildPdf({ pages: ['Secret plans'] }),
      fileName: 'o.pdf',
    })
    expect(open.text).toBe('Secret plans')
  })

  it('PDF without a text layer gives the exact message', async () => {
    const error = await failure({ bytes: buildPdf({ pages: ['', ''] }), fileName: 'scan.pdf' })
    expect(error.code).toBe('no_text_layer')
    expect(error.message).toBe('this PDF has no text layer (scanned?)')
  })

  it('a PDF with one damaged page keeps the others and says which page was lost', async () => {
    const pdf = new TextDecoder().decode(
      buildPdf({ pages: ['First page.', 'Second.', 'Third page.'] }),
    )
    // Page 2's content stream reference points at a generation that does not exist.
    const bytes = new TextEncoder().encode(pdf.replace('/Contents 7 0 R', '/Contents 7 9 R'))
    const doc = await extractDocument({ bytes, fileName: 'damaged.pdf' })
    expect(doc.text).toBe('First page.\n\n\n\nThird page.')
    expect(doc.pages.map((p) => doc.text.slice(p.start, p.end))).toEqual([
      'First page.',
      '',
      'Third page.',
    ])
    expect(doc.warnings).toEqual(['1 page could not be read: 2'])
  })

  it('a text file named .pdf', () =>
    expectCode(
      { bytes: new TextEncoder().encode('Just some notes.\n'), fileName: 'notes.pdf' },
      'type_mismatch',
      /named as a PDF but its content is plain text/,
    ))

  it('a PDF named .docx', () =>
    expectCode({ bytes: realPdf, fileName: 'report.docx' }, 'type_mismatch', /content is a PDF/))

  it('a DOCX zip bomb is refused from its central directory', async () => {
    // 200 MB of zeros deflates to ~200 KB; the archive declares the true inflated size.
    const bomb = buildZip([
      { name: '[Content_Types].xml', data: new TextEncoder().encode('<Types/>') },
      { name: 'word/document.xml', data: new Uint8Array(200 * 2 ** 20) },
    ])
    expect(bomb.length).toBeLessThan(2 ** 20)
    const started = performance.now()
    await expectCode(
      { bytes: bomb, fileName: 'bomb.docx' },
      'zip_bomb',
      /would expand to more than 128 MB/,
    )
    const small = await failure(
      { bytes: bomb, fileName: 'bomb.docx' },
      { maxUnzippedBytes: 2 ** 20 },
    )
    expect(small.code).toBe('zip_bomb')
    // Refused from the directory: far faster than inflating 200 MB would take.
    expect(performance.now() - started).toBeLessThan(1000)
  })

  it('a DOCX whose declared size is just over the limit is refused, a normal one is not', async () => {
    const error = await failure({ bytes: realDocx, fileName: 'w.docx' }, { maxUnzippedBytes: 1000 })
    expect(error.code).toBe('zip_bomb')
    const doc = await extractDocument({ bytes: realDocx, fileName: 'w.docx' })
    expect(doc.text).toContain('Swimming in the lake')
  })

  it('a ZIP that is not a Word document', () =>
    expectCode(
      { bytes: buildZip([{ name: 'a.txt', data: new Uint8Array(3) }]), fileName: 'a.docx' },
      'unsupported_type',
      /not a Word document/,
    ))

  it('a DOCX with a damaged central directory', () =>
    expectCode(
      { bytes: realDocx.subarray(0, realDocx.length - 30), fileName: 'w.docx' },
      'corrupt',
    ))

  it('binary garbage', () => {
    const bytes = new Uint8Array(5000).map((_, i) => (i * 2654435761) >>> 24)
    return expectCode({ bytes, fileName: 'blob.bin' }, 'unsupported_type', /binary/)
  })

  it('a PNG image', () =>
    expectCode(
      { bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0, 0]), fileName: 'x.png' },
      'unsupported_type',
      /PNG image/,
    ))

  it('an .odt document', () =>
    expectCode(
      { bytes: buildZip([{ name: 'content.xml', data: new Uint8Array(3) }]), fileName: 'b.odt' },
      'unsupported_type',
      /\.odt files are not supported/,
    ))

  it('a workbook whose parts are not XML has no text', () =>
    expectCode(
      {
        bytes: buildZip([{ name: 'xl/workbook.xml', data: new Uint8Array(3) }]),
        fileName: 'b.xlsx',
      },
      'empty_file',
      /contains no text/,
    ))

  it('a ZIP that is not a presentation', () =>
    expectCode(
      { bytes: buildZip([{ name: 'a.txt', data: new Uint8Array(3) }]), fileName: 'a.pptx' },
      'unsupported_type',
      /not a PowerPoint file/,
    ))

  it('invalid UTF-8 declared as UTF-8 text', () =>
    expectCode(
      {
        bytes: new Uint8Array([0x48, 0x69, 0x20, 0xc3, 0x28, 0x0a]),
        fileName: 'a.txt',
        mimeType: 'text/plain; charset=utf-8',
      },
      'invalid_encoding',
      /not valid UTF-8/,
    ))

  it('bytes that are neither UTF-8 nor windows-1252', () =>
    expectCode(
      { bytes: new Uint8Array([0x48, 0x69, 0x81, 0x0a]), fileName: 'a.txt' },
      'invalid_encoding',
    ))

  it('a UTF-16 BOM followed by an odd, broken byte count', () =>
    expectCode(
      { bytes: new Uint8Array([0xff, 0xfe, 0x41, 0x00, 0x00, 0xd8]), fileName: 'a.txt' },
      'invalid_encoding',
    ))

  it('a file larger than the limit', async () => {
    const error = await failure(
      { bytes: new Uint8Array(2048).fill(65), fileName: 'a.txt' },
      { maxBytes: 1024 },
    )
    expect(error.code).toBe('too_large')
  })
})
