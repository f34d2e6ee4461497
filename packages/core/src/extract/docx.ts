import mammoth from 'mammoth'
import { parseHtml } from './dom.ts'
import { ExtractError } from './errors.ts'
import { htmlToMarkdown } from './html-to-markdown.ts'
import { assertNotZipBomb, readCentralDirectory } from './zip-guard.ts'

/** DOCX → HTML (mammoth) → Markdown, after checking the archive's declared sizes. */
export async function docxToMarkdown(
  bytes: Uint8Array,
  maxUnzippedBytes: number,
): Promise<{ markdown: string; warnings: string[] }> {
  const entries = readCentralDirectory(bytes)
  if (!entries.some((entry) => entry.name === 'word/document.xml')) {
    throw new ExtractError('unsupported_type', 'This ZIP file is not a Word document (.docx).')
  }
  assertNotZipBomb(entries, maxUnzippedBytes)
  const arrayBuffer = bytes.slice().buffer
  let result
  try {
    // Node's mammoth reads `buffer`, its browser build `arrayBuffer`: give both.
    const input = { buffer: bytes, arrayBuffer } as unknown as { arrayBuffer: ArrayBuffer }
    result = await mammoth.convertToHtml(input, {
      convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
    })
  } catch (error) {
    throw new ExtractError('corrupt', 'This Word document is damaged and cannot be read.', {
      cause: error,
    })
  }
  const warnings = [...new Set(result.messages.map((m) => m.message))].slice(0, 20)
  return { markdown: htmlToMarkdown((await parseHtml(result.value)).body), warnings }
}
