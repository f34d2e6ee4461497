// Browser side of runs-in-a-web-worker.test.ts: extracts and chunks the files it is sent.
import { chunkDocument } from '../../chunk/chunk-document.ts'
import { extractDocument } from '../../extract/extract-document.ts'

const scope = self as unknown as {
  onmessage: (event: MessageEvent<{ name: string; bytes: Uint8Array }[]>) => void
  postMessage: (data: unknown) => void
}

scope.onmessage = async ({ data: files }) => {
  const results = []
  for (const { name, bytes } of files) {
    try {
      const doc = await extractDocument({ bytes, fileName: name })
      results.push({ name, text: doc.text, pages: doc.pages, chunks: chunkDocument(doc) })
    } catch (error) {
      results.push({ name, error: String(error) })
    }
  }
  scope.postMessage({ results })
}
