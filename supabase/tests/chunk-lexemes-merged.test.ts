import { describe, expect, it } from 'vitest'
import { searchDocuments, startIngestWorld } from './ingest-helpers.ts'
import { addReadyDocument } from './world.ts'

// Chunks' lexemes reach their GIN index through its pending list, merged by the statement that
// wrote them (20260101008200_chunk_lexemes_merged_per_statement.sql): between statements the
// list is empty, so no search reads through one. gin_clean_pending_list, run afterwards as the
// owner, says how many pending pages were left: none, unless the merge is turned off.

const { stack, db, people, workspaceId, editor } = await startIngestWorld()

const pendingPages = async (index = 'chunks_lexemes_idx') =>
  Number(
    (
      await db.rows<{ pages: string }>(
        `select pg_catalog.gin_clean_pending_list($1::regclass) as pages`,
        [`public.${index}`],
      )
    )[0]!.pages,
  )

describe('chunk lexemes merged per statement', () => {
  it('an insert leaves no pending entries, and its chunks are found', async () => {
    await pendingPages()
    const { documentId } = await addReadyDocument(stack, people.editor, workspaceId, 'Ledger', [
      'The quarterly zeppelin ledger lists hangar leases.',
      'Zeppelin maintenance reserves grew in the fourth quarter.',
    ])
    expect(await pendingPages()).toBe(0)
    expect(await searchDocuments(editor(), workspaceId, 'zeppelin hangar')).toEqual([documentId])
  })

  it('an editor’s correction of a chunk’s text leaves none either, and is found by its new words', async () => {
    const { documentId, chunkIds } = await addReadyDocument(
      stack,
      people.editor,
      workspaceId,
      'Memo',
      ['A memo about catering.'],
    )
    const updated = await editor()
      .from('chunks')
      .update({ content: 'A memo about dirigible catering.' })
      .eq('id', chunkIds[0]!)
    expect(updated.error).toBeNull()
    expect(await pendingPages()).toBe(0)
    expect(await searchDocuments(editor(), workspaceId, 'dirigible')).toEqual([documentId])
  })

  it('merges the index under another name, and chunk writes go on without it', async () => {
    await stack.db.pg.exec('alter index public.chunks_lexemes_idx rename to chunks_words_idx')
    try {
      await addReadyDocument(stack, people.editor, workspaceId, 'Renamed', [
        'Aerostat hangar rents.',
      ])
      expect(await pendingPages('chunks_words_idx')).toBe(0)
    } finally {
      await stack.db.pg.exec('alter index public.chunks_words_idx rename to chunks_lexemes_idx')
    }
    await stack.db.pg.exec('drop index public.chunks_lexemes_idx')
    try {
      const { documentId } = await addReadyDocument(
        stack,
        people.editor,
        workspaceId,
        'Unindexed',
        ['Barrage balloon tethers.'],
      )
      expect(await searchDocuments(editor(), workspaceId, 'barrage balloon')).toEqual([documentId])
    } finally {
      await stack.db.pg.exec(
        'create index chunks_lexemes_idx on public.chunks using gin (lexemes) with (fastupdate = on)',
      )
    }
  })

  it('without the merge the same insert leaves its entries pending (the check can fail)', async () => {
    await stack.db.pg.query('alter table public.chunks disable trigger merge_chunk_lexemes')
    try {
      await addReadyDocument(stack, people.editor, workspaceId, 'Unmerged', [
        'Blimp insurance premiums and airship mooring fees.',
      ])
      expect(await pendingPages()).toBeGreaterThan(0)
    } finally {
      await stack.db.pg.query('alter table public.chunks enable trigger merge_chunk_lexemes')
    }
  })
})
