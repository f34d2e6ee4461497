import { DOCUMENT_KINDS, type DocumentKind } from './kinds'

/** What the search page keeps in its URL, so Back, a reload or a shared link restores it. */
export type SearchUrlState = {
  query: string
  kind: DocumentKind | null
  documentId: string | null
  collectionId: string | null
  /** The result last opened, selected again on the way back. */
  resultId: string | null
}

const names = {
  query: 'q',
  kind: 'type',
  documentId: 'doc',
  collectionId: 'collection',
  resultId: 'result',
} as const

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const isKind = (value: string | null): value is DocumentKind =>
  value !== null && Object.hasOwn(DOCUMENT_KINDS, value)

/** The state in `params`; a hand-edited link's unknown type or malformed id is left out. */
export function readSearchUrl(params: URLSearchParams): SearchUrlState {
  const kind = params.get(names.kind)
  const documentId = params.get(names.documentId)
  const collectionId = params.get(names.collectionId)
  const resultId = params.get(names.resultId)
  return {
    query: params.get(names.query)?.trim() ?? '',
    kind: isKind(kind) ? kind : null,
    documentId: documentId && uuid.test(documentId) ? documentId : null,
    collectionId: collectionId && uuid.test(collectionId) ? collectionId : null,
    resultId: resultId && uuid.test(resultId) ? resultId : null,
  }
}

/**
 * `params` changed by `patch`, as a search string ("?q=…" or ""). Any other change than the
 * result itself forgets the result: it belonged to the previous results. Parameters the
 * search page does not own are kept.
 */
export function writeSearchUrl(params: URLSearchParams, patch: Partial<SearchUrlState>): string {
  const next = new URLSearchParams(params)
  const full = { ...patch, resultId: patch.resultId ?? null }
  for (const [key, value] of Object.entries(full) as [keyof SearchUrlState, string | null][]) {
    if (value) next.set(names[key], value)
    else next.delete(names[key])
  }
  const search = next.toString()
  return search ? `?${search}` : ''
}
