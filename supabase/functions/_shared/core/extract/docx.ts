// Generated from packages/core/src/extract/docx.ts by `npm run sync:core`: edit that file, not this one.
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
      // Word's Title style is the document's top heading (mammoth maps only Heading 1-6).
      styleMap: ["p[style-name='Title'] => h1:fresh"],
      convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
    })
  } catch (error) {
    throw new ExtractError('corrupt', 'This Word document is damaged and cannot be read.', {
      cause: error,
    })
  }
  // Mammoth's warnings are about styles it did not map (noise for a reader); its errors are not.
  const errors = result.messages.filter((message) => message.type === 'error')
  const warnings = [...new Set(errors.map((message) => message.message))]
  return { markdown: htmlToMarkdown((await parseHtml(result.value)).body), warnings }
}
