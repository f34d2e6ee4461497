import { FunctionsHttpError } from '@supabase/supabase-js'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_JWT_SECRET } from '../../packages/localbase/src/index.ts'
import { clientFor, startStack, type User } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// The search Edge Function on localbase, called through supabase-js as each kind of caller.
const stack = await startStack()
afterAll(() => stack.stop())

type Result = {
  chunk_id: string
  document_id: string
  title: string
  document_type: string
  page_start: number | null
  page_end: number | null
  score: number
  snippet: string
}

let people: People
let workspaceId: string
let herbarium: { documentId: string; chunkIds: string[] }
let voyages: { documentId: string; chunkIds: string[] }

const as = (user?: User) => clientFor(stack, user)

const addDocument = (title: string, texts: string[]) =>
  addReadyDocument(stack, people.editor, workspaceId, title, texts)

const search = (user: User | undefined, body: Record<string, unknown>) =>
  as(user).functions.invoke<{ results: Result[] }>('search', { body })

/** The status and body of a failed invoke. */
async function failure(result: { error: unknown }) {
  expect(result.error).toBeInstanceOf(FunctionsHttpError)
  const response = (result.error as FunctionsHttpError).context as Response
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
  herbarium = await addDocument('Herbarium notes', [
    'Pressed ferns were mounted on acid-free card and labelled with the collector.',
    'The mangrove samples from the estuary were dried slowly to keep their leaves intact.',
    'Mosses need no pressing; they are kept loose in paper packets.',
  ])
  voyages = await addDocument('Voyage log', [
    'We anchored near the estuary at dawn; the crew went ashore for water.',
    'Storms kept the ship in harbour for a week.',
  ])
})

describe('search', () => {
  it('finds the passage a member asks for first, with the terms highlighted', async () => {
    const { data, error } = await search(people.viewer, {
      workspace_id: workspaceId,
      query: 'dried mangrove samples',
    })
    expect(error).toBeNull()
    const first = data!.results[0]!
    expect(first).toMatchObject({
      chunk_id: herbarium.chunkIds[1],
      document_id: herbarium.documentId,
      title: 'Herbarium notes',
      // Neither a MIME type nor a file name says what it is.
      document_type: 'other',
      page_start: 2,
      page_end: 3,
    })
    expect(first.score).toBeGreaterThan(0)
    expect(first.snippet).toContain('<mark>mangrove</mark>')
    expect(first.snippet).toContain('<mark>dried</mark>')
  })

  it('snippets two or three lines around the match, never cutting a record short', async () => {
    // A CSV passage as the extractor writes it: one record per paragraph.
    const records = Array.from(
      { length: 30 },
      (_, i) => `vendor: Vendor ${i} Freight Lines; owner: Owner ${i}; city: Harbourtown`,
    )
    records[14] = 'vendor: Quetzal Freight Lines; owner: Ada Lovelace; city: Harbourtown'
    const csv = await addDocument('Vendor list', [records.join('\n\n')])
    const { data } = await search(people.viewer, {
      workspace_id: workspaceId,
      query: 'quetzal',
      document_ids: [csv.documentId],
    })
    const result = data!.results[0]!
    expect(result).toMatchObject({ page_start: 1, title: 'Vendor list' })
    expect(result.snippet.startsWith('… vendor: <mark>Quetzal</mark> Freight Lines;')).toBe(true)
    expect(result.snippet.endsWith(' …')).toBe(true)
    const lines = result.snippet.replace(/^… | …$/g, '').split(/\n+/)
    expect(lines.length).toBeGreaterThanOrEqual(2)
    expect(lines.length).toBeLessThanOrEqual(5)
    // Every line a whole record of the passage.
    for (const line of lines) expect(records).toContain(line.replace(/<\/?mark>/g, ''))

    // Prose without line breaks is cut at words, about three lines' worth, around the match.
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`)
    words[100] = 'albatross'
    const prose = await addDocument('Sea birds', [words.join(' ')])
    const { data: proseData } = await search(people.viewer, {
      workspace_id: workspaceId,
      query: 'albatross',
      document_ids: [prose.documentId],
    })
    const snippet = proseData!.results[0]!.snippet
    expect(snippet).toMatch(/^… word\d+ .* <mark>albatross<\/mark> .* word\d+ …$/)
    expect(snippet.length).toBeLessThanOrEqual(360)
    expect(snippet.indexOf('<mark>')).toBeLessThan(120)
  })

  it('limits the results and keeps to the documents asked for', async () => {
    const all = await search(people.owner, { workspace_id: workspaceId, query: 'estuary' })
    expect(all.data!.results.map((r) => r.document_id).sort()).toEqual(
      [herbarium.documentId, voyages.documentId].sort(),
    )
    const one = await search(people.owner, {
      workspace_id: workspaceId,
      query: 'estuary',
      document_ids: [voyages.documentId],
    })
    expect(one.data!.results.map((r) => r.chunk_id)).toEqual([voyages.chunkIds[0]])
    const limited = await search(people.owner, {
      workspace_id: workspaceId,
      query: 'estuary',
      limit: 1,
    })
    expect(limited.data!.results).toHaveLength(1)
  })

  it('keeps to the document kinds asked for', async () => {
    const marked = await as(people.editor)
      .from('documents')
      .update({ mime_type: 'application/pdf' })
      .eq('id', voyages.documentId)
    expect(marked.error).toBeNull()
    const pdfs = await search(people.viewer, {
      workspace_id: workspaceId,
      query: 'estuary',
      types: ['pdf'],
    })
    expect(pdfs.data!.results.map((r) => r.document_id)).toEqual([voyages.documentId])
    expect(pdfs.data!.results[0]!.document_type).toBe('pdf')
    const none = await search(people.viewer, {
      workspace_id: workspaceId,
      query: 'estuary',
      types: ['docx', 'csv'],
    })
    expect(none.data!.results).toEqual([])
  })

  it('names each result’s document type, by its MIME type or else its file’s name', async () => {
    const deck = await addDocument('Tide survey', ['Slide: the tide survey counted lugworms.'])
    const workbook = await addDocument('Tide counts.xlsx', ['Counts: lugworms 40, cockles 12.'])
    const typed = await as(people.editor)
      .from('documents')
      .update({
        mime_type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      })
      .eq('id', deck.documentId)
    expect(typed.error).toBeNull()
    const { data, error } = await search(people.viewer, {
      workspace_id: workspaceId,
      query: 'lugworms',
      document_ids: [deck.documentId, workbook.documentId],
    })
    expect(error).toBeNull()
    const typeOf = new Map(data!.results.map((r) => [r.document_id, r.document_type]))
    expect(typeOf).toEqual(
      new Map([
        [deck.documentId, 'pptx'],
        [workbook.documentId, 'xlsx'],
      ]),
    )
  })

  it('refuses an outsider with 403 and an anonymous caller too', async () => {
    for (const user of [people.outsider, undefined]) {
      const result = await search(user, { workspace_id: workspaceId, query: 'estuary' })
      expect(await failure(result)).toEqual({
        status: 403,
        body: { code: 'not_member', message: 'Only members of the workspace can search it' },
      })
    }
  })

  it('answers an expired session with 401, with collections to resolve or without', async () => {
    const now = Math.floor(Date.now() / 1000)
    const jwt = await new SignJWT({ role: 'authenticated', email: people.viewer.email })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(people.viewer.id)
      .setAudience('authenticated')
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(new TextEncoder().encode(DEFAULT_JWT_SECRET))
    const expired = { ...people.viewer, jwt }
    const scoped = { collection_ids: [crypto.randomUUID()] }
    for (const scope of [{}, scoped]) {
      const result = await search(expired, {
        workspace_id: workspaceId,
        query: 'estuary',
        ...scope,
      })
      expect(await failure(result)).toEqual({
        status: 401,
        body: { code: 'unauthorized', message: 'Sign in again: the session is missing or expired' },
      })
    }
  })

  it('answers bad input with 400 and what is wrong', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ workspace_id: workspaceId }, 'query'],
      [{ workspace_id: workspaceId, query: '   ' }, 'query must not be empty'],
      [{ workspace_id: workspaceId, query: 'x'.repeat(1001) }, 'at most 1000'],
      [{ workspace_id: 'nope', query: 'estuary' }, 'workspace_id must be a UUID'],
      [{ workspace_id: workspaceId, query: 'estuary', limit: 0 }, 'between 1 and 100'],
      [{ workspace_id: workspaceId, query: 'estuary', limit: 101 }, 'between 1 and 100'],
      [{ workspace_id: workspaceId, query: 'estuary', document_ids: ['x'] }, 'UUIDs'],
      [{ workspace_id: workspaceId, query: 'estuary', types: ['exe'] }, 'pdf, docx, html'],
      [{ workspace_id: workspaceId, query: 'estuary', types: [] }, 'at least one kind'],
      [{ workspace_id: workspaceId, query: 'estuary', types: 'pdf' }, 'array of document kinds'],
    ]
    for (const [body, message] of cases) {
      const { status, body: answer } = await failure(await search(people.owner, body))
      expect(status).toBe(400)
      expect(answer.code).toBe('invalid_input')
      expect(answer.message).toContain(message)
    }
  })

  it('answers the CORS preflight and refuses other methods', async () => {
    const preflight = await fetch(`${stack.url}/functions/v1/search`, { method: 'OPTIONS' })
    expect(preflight.status).toBe(200)
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization')
    const get = await as(people.owner).functions.invoke('search', { method: 'GET' })
    expect((await failure(get)).status).toBe(405)
  })
})
