import { createClient } from '@supabase/supabase-js'
import { describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../../packages/localbase/src/config/keys.ts'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { startIngestWorld } from './ingest-helpers.ts'

// Issue #16: on a busy server a write of the documents row waits behind every request in the
// database's queue, so the import goes on with its chunk inserts while its progress is written.

const { stack, db, people, workspaceId } = await startIngestWorld()

/** ~200 chunks of prose (about 14 inserts), each sentence its own. */
function longReport(): Uint8Array {
  const sentences = Array.from(
    { length: 4_000 },
    (_, i) => `Section ${i} reports revenue item${i} and margin note${i % 97} for the quarter.`,
  )
  return new TextEncoder().encode(sentences.join(' '))
}

type Seen = { what: string; from: number; to: number }

/** The editor's client, noting when each request went out and when its answer was in. */
function watchedEditor(seen: Seen[]) {
  const watching: typeof fetch = async (input, init) => {
    const request = new Request(input, init)
    const what = `${request.method} ${new URL(request.url).pathname}`
    const from = performance.now()
    try {
      return await fetch(request)
    } finally {
      seen.push({ what, from, to: performance.now() })
    }
  }
  return createClient(stack.url, DEFAULT_ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { Authorization: `Bearer ${people.editor.jwt}` }, fetch: watching },
  })
}

describe('an import’s progress writes', () => {
  it('go on beside its chunk inserts, and all land before the document is ready', async () => {
    const seen: Seen[] = []
    const result = await ingestFile(watchedEditor(seen), {
      workspaceId,
      bytes: longReport(),
      fileName: 'long-report.txt',
    })
    if (result.status !== 'ready') throw new Error(JSON.stringify(result))
    expect(await db.chunkCount(result.documentId)).toBe(result.chunkCount)

    const writes = seen.filter((s) => s.what === 'PATCH /rest/v1/documents')
    const inserts = seen.filter((s) => s.what === 'POST /rest/v1/chunks')
    expect(inserts.length).toBeGreaterThanOrEqual(10)
    // Entering the indexing stage writes the row; the first insert does not wait for it.
    const alongside = inserts.filter((i) => writes.some((w) => w.from <= i.from && i.from < w.to))
    expect(alongside.length).toBeGreaterThanOrEqual(1)

    // The last of them (ready) came after every progress write had its answer, and the row
    // stays as it made it.
    const ready = writes.at(-1)!
    expect(writes.slice(0, -1).every((w) => w.to <= ready.from)).toBe(true)
    const done = await db.document(result.documentId)
    expect(done).toMatchObject({ status: 'ready', stage: 'ready', progress: 1 })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await db.document(result.documentId)).toEqual(done)
  })
})
