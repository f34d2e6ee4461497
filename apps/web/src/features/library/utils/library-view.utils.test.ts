import { describe, expect, it } from 'vitest'
import type { LibraryDocument } from '../api/get-documents'
import { INTERRUPTED_AFTER_MS } from '@sourcebook/core/ingest/interrupted'
import { libraryRows, queryRows, type LibraryQuery } from './library-view'

const now = Date.parse('2026-03-01T12:00:00Z')
const ago = (ms: number) => new Date(now - ms).toISOString()

function doc(id: string, patch: Partial<LibraryDocument> = {}): LibraryDocument {
  return {
    id,
    title: `${id}.pdf`,
    file_name: `${id}.pdf`,
    periods: [],
    mime_type: null,
    size_bytes: null,
    page_count: null,
    chunk_count: 0,
    status: 'ready',
    stage: 'ready',
    progress: 1,
    error: null,
    created_at: ago(0),
    updated_at: ago(0),
    created_by: null,
    replaces_id: null,
    ocr_pages: 0,
    ocr_page: null,
    ocr_page_count: null,
    ...patch,
  }
}

const all: LibraryQuery = {
  search: '',
  status: null,
  type: null,
  sort: { key: 'date', descending: true },
}

describe('libraryRows', () => {
  it('calls a processing document interrupted only once its row has been still too long', () => {
    const moving = doc('a', { status: 'processing', updated_at: ago(INTERRUPTED_AFTER_MS - 1000) })
    const still = doc('b', { status: 'processing', updated_at: ago(INTERRUPTED_AFTER_MS + 1000) })
    const queued = doc('c', { status: 'queued', updated_at: ago(10 * INTERRUPTED_AFTER_MS) })
    expect(libraryRows([moving, still, queued], now).map((r) => r.status)).toEqual([
      'processing',
      'interrupted',
      'processing',
    ])
  })

  it('never calls a document this tab is working on interrupted', () => {
    const slow = doc('a', { status: 'processing', updated_at: ago(10 * INTERRUPTED_AFTER_MS) })
    expect(libraryRows([slow], now, new Set(['a']))[0]!.status).toBe('processing')
  })

  it('shows a new version in progress on the document it replaces, not as a row', () => {
    const current = doc('old')
    const next = doc('new', { status: 'processing', stage: 'indexing', replaces_id: 'old' })
    const orphan = doc('orphan', { replaces_id: 'gone' })
    const rows = libraryRows([next, current, orphan], now)
    expect(rows.map((r) => r.document.id)).toEqual(['old', 'orphan'])
    expect(rows[0]!.replacement).toEqual({ document: next, status: 'processing' })
  })
})

describe('queryRows', () => {
  const rows = libraryRows(
    [
      doc('b', { title: 'File 10.pdf', size_bytes: 5, created_at: ago(3) }),
      doc('a', { title: 'file 9.md', size_bytes: null, created_at: ago(2) }),
      doc('c', { title: 'Notes.txt', size_bytes: 7, created_at: ago(1), status: 'failed' }),
    ],
    now,
  )
  const ids = (query: Partial<LibraryQuery>) =>
    queryRows(rows, { ...all, ...query }).map((r) => r.document.id)

  it('matches every word of the search in the title, in any case', () => {
    expect(ids({ search: '  FILE 1 ' })).toEqual(['b'])
    expect(ids({ search: 'file' })).toEqual(['a', 'b'])
  })

  it('filters by status and type', () => {
    expect(ids({ status: 'failed' })).toEqual(['c'])
    expect(ids({ type: 'markdown' })).toEqual(['a'])
  })

  it('sorts titles naturally and unknown sizes last when largest first', () => {
    expect(ids({ sort: { key: 'title', descending: false } })).toEqual(['a', 'b', 'c'])
    expect(ids({ sort: { key: 'size', descending: true } })).toEqual(['c', 'b', 'a'])
    expect(ids({ sort: { key: 'date', descending: false } })).toEqual(['b', 'a', 'c'])
  })
})
