import { createClient } from '@supabase/supabase-js'
import { describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { retryDocument } from '../../packages/core/src/ingest/retry-document.ts'
import { DEFAULT_ANON_KEY } from '../../packages/localbase/src/index.ts'
import { searchDocuments, startIngestWorld, textFile } from './ingest-helpers.ts'
import { clientFor, type User } from './stack.ts'
import { createWorld } from './world.ts'

const { stack, db, people, workspaceId, editor } = await startIngestWorld()

/** supabase-js as `user`, running `beforeSwap` just before the replace_document call. */
function clientPausingBeforeSwap(user: User, beforeSwap: () => Promise<void>) {
  return createClient(stack.url, DEFAULT_ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: {
      headers: { Authorization: `Bearer ${user.jwt}` },
      fetch: async (input, init) => {
        if (String(input).includes('/rest/v1/rpc/replace_document')) await beforeSwap()
        return fetch(input, init)
      },
    },
  })
}

async function ingestText(words: string, fileName: string) {
  const result = await ingestFile(editor(), { workspaceId, bytes: textFile(words), fileName })
  if (result.status !== 'ready') throw new Error(JSON.stringify(result))
  return result.documentId
}

describe('replacing a document by a new version', () => {
  it('keeps the old version searchable until the new one is ready, then swaps them at once', async () => {
    const oldId = await ingestText('Quarterly figures about albatross migration', 'birds.txt')
    await editor().from('documents').update({ title: 'Bird report' }).eq('id', oldId)
    const oldPath = (await db.document(oldId))!.storage_path as string

    let checkedDuring = false
    const client = clientPausingBeforeSwap(people.editor, async () => {
      // Every chunk of the new version is stored; the swap has not happened yet.
      expect(await searchDocuments(editor(), workspaceId, 'albatross')).toEqual([oldId])
      expect(await db.document(oldId)).toMatchObject({ status: 'ready', version: 1 })
      checkedDuring = true
    })
    const result = await ingestFile(
      client,
      {
        workspaceId,
        bytes: textFile('Quarterly figures about pelican migration'),
        fileName: 'v2.txt',
      },
      { replacesId: oldId },
    )
    expect(result).toMatchObject({ status: 'ready' })
    expect(checkedDuring).toBe(true)
    if (result.status !== 'ready') return
    const newId = result.documentId

    expect(await db.document(newId)).toMatchObject({
      status: 'ready',
      stage: 'ready',
      title: 'Bird report',
      version: 2,
      replaces_id: null,
      error: null,
    })
    expect(await db.document(oldId)).toBeUndefined()
    expect(await db.chunkCount(oldId)).toBe(0)
    expect(await db.objectCount(oldPath)).toBe(0)
    expect(await db.objectCount(`${workspaceId}/${newId}/v2.txt`)).toBe(1)
    expect(await searchDocuments(editor(), workspaceId, 'albatross')).toEqual([])
    expect(await searchDocuments(editor(), workspaceId, 'pelican')).toEqual([newId])

    // And again: version 3, the title kept.
    const third = await ingestFile(
      editor(),
      {
        workspaceId,
        bytes: textFile('Quarterly figures about heron migration'),
        fileName: 'v3.txt',
      },
      { replacesId: newId },
    )
    expect(third).toMatchObject({ status: 'ready' })
    if (third.status !== 'ready') return
    expect(await db.document(third.documentId)).toMatchObject({ version: 3, title: 'Bird report' })
    expect(await db.document(newId)).toBeUndefined()
  })

  it('a new version that fails leaves the current one untouched; a retry then swaps it in', async () => {
    const oldId = await ingestText('Annual statement of walrus population', 'walrus.txt')
    const before = { doc: await db.document(oldId), chunks: await db.chunkCount(oldId) }

    const broken = await ingestFile(
      editor(),
      { workspaceId, bytes: new Uint8Array([0x48, 0x69, 0x81, 0x0a]), fileName: 'broken.txt' },
      { replacesId: oldId },
    )
    expect(broken).toMatchObject({ status: 'failed', error: expect.stringMatching(/UTF-8/) })
    expect(await db.document(oldId)).toEqual(before.doc)
    expect(await db.chunkCount(oldId)).toBe(before.chunks)
    expect(await searchDocuments(editor(), workspaceId, 'walrus')).toEqual([oldId])
    // Nor can the failed version be swapped in by calling the RPC directly.
    if (broken.status !== 'failed') return
    const swap = await editor().rpc('replace_document', { new_id: broken.documentId })
    expect(swap.error).toMatchObject({ code: '22023', hint: 'Retry it first.' })
    expect(await db.document(oldId)).toEqual(before.doc)

    // Interrupted mid-indexing (cancelled), then retried from its stored original.
    const controller = new AbortController()
    const cancelled = await ingestFile(
      editor(),
      {
        workspaceId,
        bytes: textFile('Annual statement of narwhal population', 400),
        fileName: 'n.txt',
      },
      {
        replacesId: oldId,
        batchSize: 1,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.stage === 'indexing' && p.progress > 0.7) controller.abort()
        },
      },
    )
    expect(cancelled).toMatchObject({ status: 'failed', error: 'cancelled' })
    if (cancelled.status !== 'failed') return
    expect(await db.document(oldId)).toEqual(before.doc)
    expect(await db.document(cancelled.documentId)).toMatchObject({ replaces_id: oldId })

    const retried = await retryDocument(editor(), cancelled.documentId)
    expect(retried).toMatchObject({ status: 'ready', documentId: cancelled.documentId })
    expect(await db.document(cancelled.documentId)).toMatchObject({
      status: 'ready',
      version: 2,
      title: 'Walrus',
      replaces_id: null,
    })
    expect(await db.document(oldId)).toBeUndefined()
    expect(await searchDocuments(editor(), workspaceId, 'narwhal')).toEqual([cancelled.documentId])
    expect(await searchDocuments(editor(), workspaceId, 'walrus')).toEqual([])
    // The earlier failed attempt now stands as a failed new version of the current one.
    expect(await db.document(broken.documentId)).toMatchObject({
      status: 'failed',
      replaces_id: cancelled.documentId,
    })
  })

  it('an answer lost after the swap committed still ends ready, not failed', async () => {
    const oldId = await ingestText('Census of the puffin colony', 'puffins.txt')
    const client = createClient(stack.url, DEFAULT_ANON_KEY, {
      auth: { persistSession: false, autoRefreshToken: false },
      global: {
        headers: { Authorization: `Bearer ${people.editor.jwt}` },
        fetch: async (input, init) => {
          const response = await fetch(input, init)
          if (String(input).includes('/rest/v1/rpc/replace_document')) {
            throw new TypeError('fetch failed')
          }
          return response
        },
      },
    })
    const result = await ingestFile(
      client,
      { workspaceId, bytes: textFile('Census of the gannet colony'), fileName: 'gannets.txt' },
      { replacesId: oldId },
    )
    expect(result).toMatchObject({
      status: 'ready',
      warning: "The previous version's file was left behind.",
    })
    if (result.status !== 'ready') return
    expect(await db.document(result.documentId)).toMatchObject({ status: 'ready', version: 2 })
    expect(await db.chunkCount(result.documentId)).toBeGreaterThan(0)
    expect(await db.document(oldId)).toBeUndefined()
  })

  it('the same bytes as the current version are a duplicate, not a new version', async () => {
    const oldId = await ingestText('Notes on the lighthouse keeper', 'keeper.txt')
    const again = await ingestFile(
      editor(),
      { workspaceId, bytes: textFile('Notes on the lighthouse keeper'), fileName: 'keeper-2.txt' },
      { replacesId: oldId },
    )
    expect(again).toEqual({ status: 'duplicate', documentId: oldId, title: 'Keeper' })
  })

  it('a viewer cannot replace, through ingestFile or the RPC', async () => {
    const oldId = await ingestText('Survey of the glacier tongue', 'glacier.txt')
    const viewer = clientFor(stack, people.viewer)
    const result = await ingestFile(
      viewer,
      { workspaceId, bytes: textFile('Survey of the moraine'), fileName: 'moraine.txt' },
      { replacesId: oldId },
    )
    expect(result).toEqual({
      status: 'refused',
      error: 'Only editors and owners can add documents to this workspace.',
    })

    // A pending version left by an editor: the viewer cannot swap it in either.
    const pending = await editor()
      .from('documents')
      .insert({ workspace_id: workspaceId, title: 'pending', replaces_id: oldId })
      .select('id')
      .single<{ id: string }>()
    const before = await db.document(oldId)
    const { error } = await viewer.rpc('replace_document', { new_id: pending.data!.id })
    expect(error).toMatchObject({ code: '42501' })
    expect(await db.document(oldId)).toEqual(before)
    expect(await db.document(pending.data!.id)).toMatchObject({ replaces_id: oldId, version: 1 })

    const outsider = await clientFor(stack, people.outsider).rpc('replace_document', {
      new_id: pending.data!.id,
    })
    expect(outsider.error).toMatchObject({ code: 'P0001', message: 'document not found' })
    expect(await db.document(oldId)).toEqual(before)
  })

  it('refuses a version that names a document of another workspace', async () => {
    const oldId = await ingestText('Ledger of the copper mine', 'copper.txt')
    const other = (await createWorld(stack, people)).workspaceId
    const pending = await editor()
      .from('documents')
      .insert({ workspace_id: other, title: 'elsewhere', replaces_id: oldId })
      .select('id')
      .single<{ id: string }>()
    expect(pending.error).toBeNull()
    const { error } = await editor().rpc('replace_document', { new_id: pending.data!.id })
    expect(error).toMatchObject({ code: '22023' })
    expect(await db.document(oldId)).toMatchObject({ status: 'ready' })
    // ingestFile says so before writing anything; so it does for a document that is gone.
    for (const replacesId of [oldId, crypto.randomUUID()]) {
      const result = await ingestFile(
        editor(),
        { workspaceId: other, bytes: textFile('Ledger of the tin mine'), fileName: 'tin.txt' },
        { replacesId },
      )
      expect(result).toEqual({
        status: 'refused',
        error: 'The document to replace is not in this workspace.',
      })
    }
    expect(
      await db.rows('select 1 from public.documents where workspace_id = $1', [other]),
    ).toHaveLength(1)
  })
})
