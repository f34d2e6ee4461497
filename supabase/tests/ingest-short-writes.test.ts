import { describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { startIngestWorld } from './ingest-helpers.ts'

// Issue #16: localbase's PGlite runs one statement at a time, so a document's chunks must go
// in many short inserts for members' requests to get the database in between.

const { db, workspaceId, editor } = await startIngestWorld()

/** ~200 chunks of prose, each sentence its own (numbered words, as a long report has). */
function longReport(): Uint8Array {
  const sentences = Array.from(
    { length: 4_000 },
    (_, i) => `Section ${i} reports revenue item${i} and margin note${i % 97} for the quarter.`,
  )
  return new TextEncoder().encode(sentences.join(' '))
}

describe('a long document’s chunk inserts', () => {
  it('leave room for a member’s reads while they run', async () => {
    const member = editor()
    const counted = async () => {
      const { count, error } = await member
        .from('chunks')
        .select('id', { count: 'exact', head: true })
        .eq('workspace_id', workspaceId)
      if (error) throw new Error(error.message)
      return count!
    }
    const before = await counted()
    const bytes = longReport()
    let done = false
    const ingest = ingestFile(editor(), {
      workspaceId,
      bytes,
      fileName: 'long-report.txt',
    }).finally(() => (done = true))
    // One read at a time, as a member paging the library would, until the import ends.
    const seen: number[] = []
    while (!done) seen.push((await counted()) - before)
    const result = await ingest
    if (result.status !== 'ready') throw new Error(JSON.stringify(result))
    const total = result.chunkCount
    expect(total).toBeGreaterThan(150)
    expect(await db.chunkCount(result.documentId)).toBe(total)

    // The reads ran between the inserts and saw the document's chunks arrive a batch at a
    // time (about 14 chunks of this prose each): one insert of them all would show nothing,
    // then everything.
    const partial = new Set(seen.filter((n) => n > 0 && n < total))
    expect(partial.size).toBeGreaterThanOrEqual(5)
  })
})
