import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConversation } from './chat-client.ts'
import { clientFor, startStack, type User } from './stack.ts'
import {
  type Actor,
  actors,
  actorUser,
  addReadyDocument,
  createPeople,
  createWorld,
  type People,
  type World,
} from './world.ts'

// Collections, their memberships and conversation scopes under RLS, through supabase-js as
// each kind of caller; the database's own view (no RLS) decides what really happened.
const stack = await startStack()
afterAll(() => stack.stop())

let people: People

const as = (user: User | undefined) => clientFor(stack, user)

const count = async (sql: string, params: unknown[]) =>
  Number(
    (await stack.db.pg.query<{ n: string }>(`select count(*) as n from ${sql}`, params)).rows[0]!.n,
  )

/** A world with one document in one collection, written by its editor. */
async function collectionWorld() {
  const world = await createWorld(stack, people)
  const doc = await addReadyDocument(stack, people.editor, world.workspaceId, 'Ferns', [
    'Pressed ferns were mounted on card.',
  ])
  const other = await addReadyDocument(stack, people.editor, world.workspaceId, 'Mosses', [
    'Mosses are kept loose in packets.',
  ])
  const made = await as(people.editor)
    .from('collections')
    .insert({ workspace_id: world.workspaceId, name: 'Botany', color: 'green' })
    .select()
    .single()
  if (made.error) throw made.error
  const collectionId = (made.data as { id: string }).id
  const added = await as(people.editor)
    .from('collection_documents')
    .insert({ collection_id: collectionId, document_id: doc.documentId })
  if (added.error) throw added.error
  return { world, collectionId, documentId: doc.documentId, otherId: other.documentId }
}

const members: Actor[] = ['viewer', 'editor', 'owner']
const writers: Actor[] = ['editor', 'owner']

beforeAll(async () => {
  people = await createPeople(stack)
})

describe('collections by role', () => {
  for (const actor of actors) {
    const user = (world: World) => actorUser(world, actor)

    it(`${actor} ${members.includes(actor) ? 'reads' : 'sees no'} collections and memberships`, async () => {
      const { world, collectionId } = await collectionWorld()
      const collections = await as(user(world))
        .from('collections')
        .select('id, name')
        .eq('workspace_id', world.workspaceId)
      const memberships = await as(user(world))
        .from('collection_documents')
        .select('collection_id, document_id, workspace_id')
        .eq('workspace_id', world.workspaceId)
      if (members.includes(actor)) {
        expect(collections.data).toEqual([{ id: collectionId, name: 'Botany' }])
        expect(memberships.data).toHaveLength(1)
        expect(memberships.data![0]).toMatchObject({ workspace_id: world.workspaceId })
      } else {
        expect(collections.data ?? []).toEqual([])
        expect(memberships.data ?? []).toEqual([])
      }
    })

    it(`${actor} ${writers.includes(actor) ? 'may' : 'may not'} create, edit and delete collections`, async () => {
      const { world, collectionId, documentId } = await collectionWorld()
      const allowed = writers.includes(actor)
      const created = await as(user(world))
        .from('collections')
        .insert({ workspace_id: world.workspaceId, name: 'Minutes', description: 'Board' })
      if (allowed) expect(created.error).toBeNull()
      else expect(created.error?.code).toBe('42501')
      const renamed = await as(user(world))
        .from('collections')
        .update({ name: 'Plants', color: 'teal' })
        .eq('id', collectionId)
        .select('id')
      expect(renamed.data ?? []).toHaveLength(allowed ? 1 : 0)
      const deleted = await as(user(world))
        .from('collections')
        .delete()
        .eq('id', collectionId)
        .select('id')
      expect(deleted.data ?? []).toHaveLength(allowed ? 1 : 0)
      expect(await count('public.collections where id = $1', [collectionId])).toBe(allowed ? 0 : 1)
      // Deleting a collection never deletes its documents.
      expect(await count('public.documents where id = $1', [documentId])).toBe(1)
    })

    it(`${actor} ${writers.includes(actor) ? 'may' : 'may not'} add and remove documents`, async () => {
      const { world, collectionId, documentId, otherId } = await collectionWorld()
      const allowed = writers.includes(actor)
      const added = await as(user(world))
        .from('collection_documents')
        .insert({ collection_id: collectionId, document_id: otherId })
      if (allowed) expect(added.error).toBeNull()
      else expect(added.error).not.toBeNull()
      const removed = await as(user(world))
        .from('collection_documents')
        .delete()
        .match({ collection_id: collectionId, document_id: documentId })
        .select('document_id')
      expect(removed.data ?? []).toHaveLength(allowed ? 1 : 0)
      expect(
        await count('public.collection_documents where collection_id = $1', [collectionId]),
      ).toBe(1)
    })
  }
})

describe('collections', () => {
  it('are named once per workspace, from the palette, and cannot be forged', async () => {
    const { world } = await collectionWorld()
    const again = await as(people.editor)
      .from('collections')
      .insert({ workspace_id: world.workspaceId, name: ' botany ' })
    expect(again.error?.code).toBe('23505')
    const blank = await as(people.editor)
      .from('collections')
      .insert({ workspace_id: world.workspaceId, name: '  ' })
    expect(blank.error?.code).toBe('23514')
    const css = await as(people.editor)
      .from('collections')
      .insert({ workspace_id: world.workspaceId, name: 'Red', color: 'red;x' })
    expect(css.error?.code).toBe('23514')
    const forged = await as(people.editor)
      .from('collections')
      .insert({ workspace_id: world.workspaceId, name: 'Forged', created_by: people.owner.id })
    expect(forged.error?.code).toBe('42501')
  })

  it('hold only documents of their own workspace', async () => {
    const { world, collectionId } = await collectionWorld()
    const elsewhere = await createWorld(stack, people)
    const stranger = await addReadyDocument(stack, people.editor, elsewhere.workspaceId, 'Else', [
      'Elsewhere.',
    ])
    const mixed = await as(people.editor)
      .from('collection_documents')
      .insert({ collection_id: collectionId, document_id: stranger.documentId })
    expect(mixed.error?.code).toBe('23503')
    expect(
      await count('public.collection_documents where workspace_id = $1', [world.workspaceId]),
    ).toBe(1)
  })

  it('lose a document deleted from the workspace, and keep the rest', async () => {
    const { collectionId, documentId, otherId } = await collectionWorld()
    await as(people.editor)
      .from('collection_documents')
      .insert({ collection_id: collectionId, document_id: otherId })
    const gone = await as(people.editor).from('documents').delete().eq('id', documentId)
    expect(gone.error).toBeNull()
    const left = await as(people.viewer)
      .from('collection_documents')
      .select('document_id')
      .eq('collection_id', collectionId)
    expect(left.data).toEqual([{ document_id: otherId }])
  })
})

describe('a conversation scope', () => {
  it('is stored, read back by a teammate when shared, and changed by its creator', async () => {
    const { world, collectionId, documentId } = await collectionWorld()
    const started = await as(people.viewer)
      .from('conversations')
      .insert({
        workspace_id: world.workspaceId,
        title: 'Ferns only',
        visibility: 'shared',
        document_ids: [documentId, documentId],
        collection_ids: [collectionId],
      })
      .select('id, document_ids, collection_ids')
      .single()
    expect(started.error).toBeNull()
    // Each id once.
    expect(started.data).toMatchObject({
      document_ids: [documentId],
      collection_ids: [collectionId],
    })
    const id = (started.data as { id: string }).id
    const seen = await as(people.owner)
      .from('conversations')
      .select('document_ids, collection_ids')
      .eq('id', id)
      .single()
    expect(seen.data).toEqual({ document_ids: [documentId], collection_ids: [collectionId] })
    const widened = await as(people.viewer)
      .from('conversations')
      .update({ document_ids: null, collection_ids: null })
      .eq('id', id)
      .select('document_ids, collection_ids')
      .single()
    expect(widened.data).toEqual({ document_ids: null, collection_ids: null })
    const byOther = await as(people.owner)
      .from('conversations')
      .update({ document_ids: [documentId] })
      .eq('id', id)
      .select('id')
    expect(byOther.data).toEqual([])
  })

  it('names only documents and collections of its workspace', async () => {
    const { world } = await collectionWorld()
    const elsewhere = await collectionWorld()
    for (const scope of [
      { document_ids: [elsewhere.documentId] },
      { collection_ids: [elsewhere.collectionId] },
      { document_ids: ['00000000-0000-4000-8000-000000000000'] },
    ]) {
      const refused = await as(people.editor)
        .from('conversations')
        .insert({ workspace_id: world.workspaceId, title: 'Sneaky', ...scope })
      expect(refused.error?.code).toBe('23503')
    }
    const id = await createConversation(stack, people.editor, world.workspaceId)
    const changed = await as(people.editor)
      .from('conversations')
      .update({ document_ids: [elsewhere.documentId] })
      .eq('id', id)
    expect(changed.error?.code).toBe('23503')
  })

  it('drops a deleted document or collection, and never widens to the whole workspace', async () => {
    const { world, collectionId, documentId, otherId } = await collectionWorld()
    const { data } = await as(people.viewer)
      .from('conversations')
      .insert({
        workspace_id: world.workspaceId,
        title: 'Both',
        document_ids: [documentId, otherId],
        collection_ids: [collectionId],
      })
      .select('id')
      .single()
    const id = (data as { id: string }).id
    await as(people.editor).from('documents').delete().eq('id', documentId)
    await as(people.owner).from('collections').delete().eq('id', collectionId)
    const scope = () =>
      as(people.viewer)
        .from('conversations')
        .select('document_ids, collection_ids')
        .eq('id', id)
        .single()
    expect((await scope()).data).toEqual({ document_ids: [otherId], collection_ids: [] })
    await as(people.editor).from('documents').delete().eq('id', otherId)
    expect((await scope()).data).toEqual({ document_ids: [], collection_ids: [] })
  })

  it('goes with its workspace', async () => {
    const { world, collectionId, documentId } = await collectionWorld()
    await as(people.viewer)
      .from('conversations')
      .insert({
        workspace_id: world.workspaceId,
        title: 'Scoped',
        document_ids: [documentId],
        collection_ids: [collectionId],
      })
    const gone = await as(people.owner).from('workspaces').delete().eq('id', world.workspaceId)
    expect(gone.error).toBeNull()
    expect(await count('public.collections where workspace_id = $1', [world.workspaceId])).toBe(0)
    expect(await count('public.conversations where workspace_id = $1', [world.workspaceId])).toBe(0)
  })
})

describe('a new version of a document', () => {
  it('takes over the collections and scopes of the one it replaces', async () => {
    const { world, collectionId, documentId } = await collectionWorld()
    const id = await createConversation(stack, people.viewer, world.workspaceId)
    await as(people.viewer)
      .from('conversations')
      .update({ document_ids: [documentId] })
      .eq('id', id)
    const next = await as(people.editor)
      .from('documents')
      .insert({
        workspace_id: world.workspaceId,
        title: 'Ferns',
        status: 'processing',
        stage: 'indexing',
        replaces_id: documentId,
      })
      .select('id')
      .single()
    expect(next.error).toBeNull()
    const newId = (next.data as { id: string }).id
    const swapped = await as(people.editor).rpc('replace_document', { new_id: newId })
    expect(swapped.error).toBeNull()
    const memberships = await as(people.viewer)
      .from('collection_documents')
      .select('document_id')
      .eq('collection_id', collectionId)
    expect(memberships.data).toEqual([{ document_id: newId }])
    const scope = await as(people.viewer)
      .from('conversations')
      .select('document_ids')
      .eq('id', id)
      .single()
    expect(scope.data).toEqual({ document_ids: [newId] })
  })
})
