import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deleteDocument } from '../../packages/core/src/ingest/delete-document.ts'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { inspect, textFile } from './ingest-helpers.ts'
import { clientFor, serviceAvailable, startStack, type User } from './stack.ts'
import { type Change, until, watchChanges } from './watch-changes.ts'
import { createPeople, createWorld, type People } from './world.ts'

// A document's extracted text lives in document_texts, outside the supabase_realtime
// publication: the documents row's updates, which every member watching the library
// receives, stay small however long the text.
const stack = await startStack()
const realtime = await serviceAvailable(stack, '/realtime/v1/websocket')
const clients: SupabaseClient[] = []
afterAll(async () => {
  await Promise.all(clients.map((client) => client.removeAllChannels()))
  await stack.stop()
})

let people: People
let workspaceId: string
beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
})

const as = (user?: User) => clientFor(stack, user)
const { textCount } = inspect(stack)

/** Ingests a plain-text file as the editor; returns its id and the text stored for it. */
async function ingestText(words: string) {
  const result = await ingestFile(as(people.editor), {
    workspaceId,
    bytes: textFile(words, 400),
    fileName: `${words}.txt`,
  })
  if (result.status !== 'ready') throw new Error(JSON.stringify(result))
  return result.documentId
}

describe.skipIf(!realtime)('document updates over realtime', () => {
  it('carry the row without its text, when it becomes ready and when it is renamed', async () => {
    const seen: Change[] = []
    clients.push(await watchChanges(stack, people.viewer, 'documents', workspaceId, seen))
    const id = await ingestText('Estuary mangrove survey notes')
    await until(() => seen.some((c) => c.new.id === id && c.new.status === 'ready'))
    const { error } = await as(people.editor)
      .from('documents')
      .update({ title: 'Renamed survey' })
      .eq('id', id)
    expect(error).toBeNull()
    await until(() => seen.some((c) => c.new.title === 'Renamed survey'))

    const updates = seen.filter((c) => c.eventType === 'UPDATE' && c.new.id === id)
    expect(updates.map((c) => c.new.status)).toContain('ready')
    expect(updates.at(-1)!.new).toMatchObject({ title: 'Renamed survey', status: 'ready' })
    for (const { new: record } of updates) {
      expect(Object.keys(record)).not.toContain('extracted_text')
      // The text repeats the words; the title holds them once.
      expect(JSON.stringify(record)).not.toContain('notes. Estuary mangrove')
    }
  })
})

describe('document_texts', () => {
  it('members read a document’s text; outsiders and anonymous callers see none', async () => {
    const id = await ingestText('Heron nesting counts')
    for (const user of [people.viewer, people.editor, people.owner]) {
      const { data, error } = await as(user)
        .from('document_texts')
        .select('text')
        .eq('document_id', id)
        .single()
      expect(error).toBeNull()
      expect(data!.text).toContain('Heron nesting counts. Heron nesting counts.')
    }
    for (const user of [people.outsider, undefined]) {
      const { data, error } = await as(user).from('document_texts').select('text')
      expect(error).toBeNull()
      expect(data).toEqual([])
    }
  })

  it('viewers and outsiders cannot write texts; editors can', async () => {
    const id = await ingestText('Tide gauge readings')
    const row = { document_id: id, workspace_id: workspaceId, text: 'forged' }
    for (const user of [people.viewer, people.outsider, undefined]) {
      const changed = await as(user)
        .from('document_texts')
        .update({ text: 'forged' })
        .eq('document_id', id)
        .select('document_id')
      expect(changed.data ?? []).toEqual([])
      const removed = await as(user)
        .from('document_texts')
        .delete()
        .eq('document_id', id)
        .select('document_id')
      expect(removed.data ?? []).toEqual([])
      const inserted = await as(user).from('document_texts').upsert(row)
      expect(inserted.error?.code).toBe('42501')
    }
    expect(await textCount(id)).toBe(1)
    const { data } = await as(people.viewer)
      .from('document_texts')
      .select('text')
      .eq('document_id', id)
      .single()
    expect(data!.text).not.toBe('forged')

    const edited = await as(people.editor)
      .from('document_texts')
      .update({ text: 'corrected' })
      .eq('document_id', id)
      .select('text')
    expect(edited).toMatchObject({ error: null, data: [{ text: 'corrected' }] })
  })

  it('a text cannot claim another workspace than its document’s', async () => {
    const id = await ingestText('Salt marsh transects')
    const { data: other } = await as(people.editor)
      .from('workspaces')
      .insert({ name: 'Elsewhere' })
      .select('id')
      .single()
    await as(people.editor).from('document_texts').delete().eq('document_id', id)
    const { error } = await as(people.editor)
      .from('document_texts')
      .insert({ document_id: id, workspace_id: other!.id, text: 'misfiled' })
    expect(error?.code).toBe('23503')
  })

  it('goes with its document', async () => {
    const id = await ingestText('Oyster reef survey')
    expect(await textCount(id)).toBe(1)
    await deleteDocument(as(people.editor), id)
    expect(await textCount(id)).toBe(0)
  })
})
