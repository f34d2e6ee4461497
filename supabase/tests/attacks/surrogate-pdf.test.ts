import { expect, it } from 'vitest'
import { ingestFile } from '../../../packages/core/src/ingest/ingest-file.ts'
import { readShared, startIngestWorld } from '../ingest-helpers.ts'

// Issue #14, finding 7: a valid PDF whose text layer holds a lone UTF-16 surrogate failed to
// import, because Postgres refuses the escaped surrogate in the JSON of the chunk insert.
const { db, workspaceId, editor } = await startIngestWorld()
const fileName = 'skipped_1page.pdf'
const pdf = readShared(`docling-testdata/pdf/sources/${fileName}`)

/** A UTF-16 surrogate that is not half of a pair, or a NUL. */
const unstorable = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\0/

it('a PDF whose text holds a lone surrogate imports, with U+FFFD in its place', async () => {
  const result = await ingestFile(editor(), {
    workspaceId,
    bytes: pdf,
    fileName,
    mimeType: 'application/pdf',
  })
  expect(result, JSON.stringify(result)).toMatchObject({ status: 'ready', pageCount: 3 })
  if (result.status !== 'ready') return
  expect(result.chunkCount).toBeGreaterThan(0)

  const chunks = await db.rows<{ content: string }>(
    'select content from public.chunks where document_id = $1 order by ordinal',
    [result.documentId],
  )
  expect(chunks).toHaveLength(result.chunkCount)
  const [stored] = await db.rows<{ text: string }>(
    'select text from public.document_texts where document_id = $1',
    [result.documentId],
  )
  const text = stored!.text
  for (const piece of [text, ...chunks.map((c) => c.content)]) {
    expect(piece).not.toMatch(unstorable)
  }
  expect(text).toContain('\uFFFD')
})
