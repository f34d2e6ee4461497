import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { sharedData } from '../testing/shared-data.ts'
import { extractDocument } from './extract-document.ts'
import { usePdfjsOwnInflate } from './pdfjs-own-inflate.ts'

// The importer's extraction threads read PDFs with pdf.js's own inflate: the text must be the
// text pdf.js gives through the platform's DecompressionStream, tables included.
const platform = globalThis.DecompressionStream
afterAll(() => {
  globalThis.DecompressionStream = platform
})

it('reads a filing the same when pdf.js inflates its streams itself', async () => {
  const fileName = 'JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf'
  const bytes = readFileSync(fileURLToPath(new URL(`financebench-pdfs/${fileName}`, sharedData)))
  const read = () => extractDocument({ bytes: new Uint8Array(bytes), fileName })
  expect(globalThis.DecompressionStream).toBeDefined()
  const throughPlatform = await read()
  expect(throughPlatform.text).toContain('| ')
  usePdfjsOwnInflate()
  expect(globalThis.DecompressionStream).toBeUndefined()
  expect(await read()).toEqual(throughPlatform)
})
