import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { typeOfDocument } from '../../packages/core/src/extract/document-type.ts'
import { clientFor, startStack } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// search_chunks and chat_sources return each passage's document type
// (20260101005200_search_document_type.sql), so the search and chat functions no longer read
// the documents for it. The SQL must name types as the browser and the importer do.
const stack = await startStack()
afterAll(() => stack.stop())

let people: People
let workspaceId: string

beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
})

const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
const cases: { mime_type: string | null; storage_path: string | null; title: string }[] = [
  { mime_type: 'application/pdf', storage_path: null, title: 'Report' },
  { mime_type: ' Application/PDF ; name=x', storage_path: null, title: 'Report' },
  { mime_type: docx, storage_path: 'w/d/notes.pdf', title: 'Notes.pdf' },
  { mime_type: 'application/vnd.ms-excel.sheet.macroEnabled.12', storage_path: null, title: 'M' },
  { mime_type: 'text/x-markdown', storage_path: null, title: 'Readme' },
  { mime_type: 'application/xhtml+xml', storage_path: null, title: 'Page' },
  { mime_type: 'text/plain; charset=utf-8', storage_path: null, title: 'Log' },
  { mime_type: 'text/csv', storage_path: null, title: 'Vendors' },
  // An unknown or missing MIME type: the stored file's extension, then the title's.
  { mime_type: 'application/octet-stream', storage_path: 'w/d/deck.PPTX', title: 'Deck' },
  { mime_type: null, storage_path: 'w/d/book.xlsm', title: 'Book.pdf' },
  { mime_type: null, storage_path: 'w/d/no-extension', title: 'Minutes.DOCX' },
  { mime_type: null, storage_path: null, title: 'page.htm' },
  { mime_type: null, storage_path: null, title: 'notes.markdown' },
  { mime_type: null, storage_path: null, title: 'plain.text' },
  { mime_type: '', storage_path: '', title: 'A title with no extension' },
  { mime_type: null, storage_path: null, title: 'archive.tar.gz' },
  { mime_type: null, storage_path: null, title: 'trailing dot.' },
  { mime_type: null, storage_path: null, title: 'constructor.constructor' },
]

describe('document_type', () => {
  it('names every type as typeOfDocument does', async () => {
    const { rows } = await stack.db.pg.query<{ type: string }>(
      `select public.document_type(c->>'mime_type', c->>'storage_path', c->>'title') as type
       from jsonb_array_elements($1::jsonb) with ordinality x (c, i) order by i`,
      [JSON.stringify(cases)],
    )
    expect(rows.map((r) => r.type)).toEqual(cases.map(typeOfDocument))
  })
})

describe('search results', () => {
  it('carry the kind of a PDF, a Word document, a workbook and a deck', async () => {
    const editor = clientFor(stack, people.editor)
    const add = async (title: string, text: string, mimeType?: string) => {
      const doc = await addReadyDocument(stack, people.editor, workspaceId, title, [text])
      if (mimeType) {
        const typed = await editor
          .from('documents')
          .update({ mime_type: mimeType })
          .eq('id', doc.documentId)
        expect(typed.error).toBeNull()
      }
      return doc.documentId
    }
    const pdf = await add('Survey', 'The heron survey counted nests.', 'application/pdf')
    const word = await add('Survey notes', 'Heron nests by the weir.', docx)
    const book = await add(
      'Counts',
      'Heron nests: 14.',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    )
    // No MIME type: its title's extension says.
    const deck = await add('Talk.pptx', 'Herons: a talk on nests.')
    const expected = new Map([
      [pdf, 'pdf'],
      [word, 'docx'],
      [book, 'xlsx'],
      [deck, 'pptx'],
    ])

    const viewer = clientFor(stack, people.viewer)
    const searched = await viewer.functions.invoke<{ results: Record<string, unknown>[] }>(
      'search',
      { body: { workspace_id: workspaceId, query: 'heron nests' } },
    )
    expect(searched.error).toBeNull()
    const results = searched.data!.results
    expect(new Map(results.map((r) => [r.document_id, r.document_type]))).toEqual(expected)
    // The shape the web app and the MCP server read, the type added.
    expect(Object.keys(results[0]!).sort()).toEqual(
      [
        'bm25',
        'chunk_id',
        'document_id',
        'document_type',
        'lexical_rank',
        'ordinal',
        'page_end',
        'page_start',
        'score',
        'semantic_rank',
        'similarity',
        'snippet',
        'title',
      ].sort(),
    )

    // Kept to one document, the search function asks search_document: the type is there too.
    for (const [documentId, type] of expected) {
      const one = await viewer.functions.invoke<{ results: Record<string, unknown>[] }>('search', {
        body: { workspace_id: workspaceId, query: 'heron nests', document_ids: [documentId] },
      })
      expect(one.error).toBeNull()
      expect(one.data!.results.map((r) => [r.document_id, r.document_type])).toEqual([
        [documentId, type],
      ])
    }

    // Chat's passages too (their citations keep the type).
    const sources = await viewer.rpc('chat_sources', {
      workspace_id: workspaceId,
      query: 'heron nests',
    })
    expect(sources.error).toBeNull()
    const rows = sources.data as { document_id: string; document_type: string }[]
    expect(new Map(rows.map((r) => [r.document_id, r.document_type]))).toEqual(expected)

    // RLS as before: a non-member gets nothing, kinds included.
    const outsider = clientFor(stack, people.outsider)
    for (const fn of ['search_chunks', 'chat_sources'] as const) {
      const denied = await outsider.rpc(fn, { workspace_id: workspaceId, query: 'heron nests' })
      expect(denied.error).toBeNull()
      expect(denied.data).toEqual([])
    }
  })
})
