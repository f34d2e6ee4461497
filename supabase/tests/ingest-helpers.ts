import { readFileSync } from 'node:fs'
import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll } from 'vitest'
import { sharedData } from '../../packages/core/src/testing/shared-data.ts'
import { clientFor, startStack, type Stack } from './stack.ts'
import { createPeople, createWorld } from './world.ts'

/**
 * A stack for one test file, stopped after it, with world.ts's people and workspace:
 * `editor()` is a client as its editor, `db` reads as the database owner.
 */
export async function startIngestWorld() {
  const stack = await startStack()
  afterAll(() => stack.stop())
  const people = await createPeople(stack)
  const { workspaceId } = await createWorld(stack, people)
  const editor = () => clientFor(stack, people.editor)
  return { stack, db: inspect(stack), people, workspaceId, editor }
}

/** Test-side reads as the database owner (no RLS), to see what was really written. */
export function inspect(stack: Stack) {
  const rows = async <T>(sql: string, params: unknown[] = []): Promise<T[]> =>
    (await stack.db.pg.query<T>(sql, params)).rows
  return {
    rows,
    document: async (id: string) =>
      (
        await rows<Record<string, unknown>>('select * from public.documents where id = $1', [id])
      )[0],
    chunkCount: async (documentId: string) =>
      (await rows('select 1 from public.chunks where document_id = $1', [documentId])).length,
    textCount: async (documentId: string) =>
      (await rows('select 1 from public.document_texts where document_id = $1', [documentId]))
        .length,
    objectCount: async (prefix: string) =>
      (
        await rows(`select 1 from storage.objects where bucket_id = 'documents' and name like $1`, [
          `${prefix}%`,
        ])
      ).length,
  }
}

/** The ids of the documents whose chunks search_chunks finds for `query`, as `client`. */
export async function searchDocuments(
  client: SupabaseClient,
  workspaceId: string,
  query: string,
): Promise<string[]> {
  const { data, error } = await client.rpc('search_chunks', {
    workspace_id: workspaceId,
    query,
    match_count: 50,
  })
  if (error) throw new Error(error.message)
  return [...new Set((data as { document_id: string }[]).map((h) => h.document_id))]
}

export const readShared = (path: string) => new Uint8Array(readFileSync(new URL(path, sharedData)))

/** A plain-text file of `words`, repeated to make a few chunks. */
export const textFile = (words: string, times = 200) =>
  new TextEncoder().encode(`${words}. `.repeat(times))

/**
 * Leaves a document as a dead importer does: processing mid-indexing with a chunk of its own
 * written, its last heartbeat `seconds` ago (the touch_updated_at trigger kept out of the way).
 */
export async function stallImport(stack: Pick<Stack, 'db'>, id: string, seconds: number) {
  await stack.db.pg.query(
    `insert into public.chunks (document_id, workspace_id, ordinal, content)
     select id, workspace_id, 0, 'stale half' from public.documents where id = $1
     on conflict do nothing`,
    [id],
  )
  await stack.db.pg.transaction(async (tx) => {
    await tx.query('set local session_replication_role = replica')
    await tx.query(
      `update public.documents set status = 'processing', stage = 'indexing', progress = 0.7,
         updated_at = now() - make_interval(secs => $2) where id = $1`,
      [id, seconds],
    )
  })
}
