import { SearchIcon, SearchXIcon, TriangleAlertIcon } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { EmptyState } from '@/components/layout/empty-state'
import { OptionalSelect } from '@/components/layout/optional-select'
import { Input } from '@/components/ui/input'
import { errorMessage } from '@/lib/errors'
import { documentHref } from '@/lib/links'
import { useSearchCollections } from '../api/get-search-collections'
import { useSearchableDocuments } from '../api/get-searchable-documents'
import { useSearchChunks, type SearchResult } from '../api/search-chunks'
import { useSearchUrl } from '../hooks/use-search-url'
import { DOCUMENT_KINDS, kindsPresent } from '../utils/kinds'
import { type FilterChip, FilterChips } from './filter-chips'
import { ResultCard } from './result-card'
import { ResultCount } from './result-count'
import { ResultSkeletons } from './result-skeletons'

const optionId = (index: number) => `search-result-${index}`

/** How long typing pauses before the query is searched (and written to the URL). */
const TYPING_PAUSE_MS = 200

type Filter = 'collectionId' | 'documentId' | 'kind'

/** A removable chip for a filter that is set, none for one that is not. */
const chip = (key: Filter, label: string | undefined): FilterChip<Filter>[] =>
  label ? [{ key, label }] : []

/** Where a result opens: its document in the viewer, scrolled to the passage. */
const resultHref = (workspaceId: string, result: SearchResult) =>
  documentHref(workspaceId, result.document_id, result.chunk_id)

/**
 * The search box and its results, searched as you type; ↑/↓ choose a result, Enter opens it.
 * The query, filters and opened result live in the URL, so Back and shared links restore them.
 */
export function SearchPanel({ workspaceId }: { workspaceId: string }) {
  const url = useSearchUrl()
  const { query, kind, resultId } = url.state
  const [text, setText] = useState(query)
  const [seenKey, setSeenKey] = useState(url.locationKey)
  // Back, Forward or a link changed the URL: the box shows its query, not what was typed.
  if (url.locationKey !== seenKey) {
    setSeenKey(url.locationKey)
    if (url.external) setText(query)
  }
  const [active, setActive] = useState<number | null>(null)
  // A query submitted with Enter before its results arrived: its top result opens on arrival.
  const [openWhenReady, setOpenWhenReady] = useState<string | null>(null)
  const typing = useRef<ReturnType<typeof setTimeout>>(undefined)
  // A query typed before Back or a link must not be written over the page they lead to.
  useEffect(() => {
    if (url.external) clearTimeout(typing.current)
  }, [url.locationKey, url.external])
  useEffect(() => () => clearTimeout(typing.current), [])

  const documents = useSearchableDocuments(workspaceId)
  const documentList = documents.data ?? []
  // A document id from the URL that is not (or no longer) searchable here filters nothing.
  const documentId =
    url.state.documentId &&
    (documents.isPending || documentList.some((d) => d.id === url.state.documentId))
      ? url.state.documentId
      : null
  const collections = useSearchCollections(workspaceId)
  const collectionList = collections.data ?? []
  // Likewise a collection that is not (or no longer) here.
  const collectionId =
    url.state.collectionId &&
    (collections.isPending || collectionList.some((c) => c.id === url.state.collectionId))
      ? url.state.collectionId
      : null
  const search = useSearchChunks(workspaceId, query, { documentId, collectionId, kind })
  const kinds = kindsPresent(documentList.map((d) => d.mime_type))
  const navigate = useNavigate()
  const results = query ? (search.data ?? []) : []
  const restored = results.findIndex((r) => r.chunk_id === resultId)
  const current = Math.min(active ?? Math.max(0, restored), results.length - 1)
  // The results on screen answer what the box says, not an earlier query.
  const fresh = text.trim() === query && search.isSuccess && !search.isPlaceholderData

  async function open(result: SearchResult) {
    clearTimeout(typing.current)
    // This entry remembers the result, so Back returns to it selected.
    await url.update({ query, kind, documentId, collectionId, resultId: result.chunk_id })
    await navigate(resultHref(workspaceId, result))
  }

  const pending = openWhenReady !== null && openWhenReady === query && fresh ? results[0] : null
  useEffect(() => {
    if (pending) void open(pending)
    // `open` is recreated every render; the pending result alone decides.
  }, [pending]) // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    document.getElementById(optionId(current))?.scrollIntoView({ block: 'nearest' })
  }, [current])

  function type(value: string) {
    setText(value)
    setActive(null)
    setOpenWhenReady(null)
    clearTimeout(typing.current)
    typing.current = setTimeout(() => void url.update({ query: value.trim() }), TYPING_PAUSE_MS)
  }

  function filter(patch: Parameters<typeof url.update>[0]) {
    clearTimeout(typing.current)
    setActive(null)
    setOpenWhenReady(null)
    void url.update(
      { query: text.trim(), kind, documentId, collectionId, ...patch },
      { push: true },
    )
  }

  function onKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (!fresh) return
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive(Math.max(0, Math.min(results.length - 1, current + step)))
    } else if (event.key === 'Enter') {
      event.preventDefault()
      const submitted = text.trim()
      if (!submitted) return
      if (fresh) {
        if (results[current]) void open(results[current])
        return
      }
      // The results on screen belong to an older query: search this one, then open its top.
      clearTimeout(typing.current)
      setActive(null)
      setOpenWhenReady(submitted)
      void url.update({ query: submitted, kind, documentId, collectionId }, { push: true })
    }
  }

  return (
    <div className="mx-auto grid max-w-3xl gap-6 px-4 py-8 sm:px-8">
      <div className="flex flex-wrap gap-2">
        <div className="relative min-w-56 flex-1">
          <SearchIcon
            className="text-muted-foreground absolute top-2.5 left-3 size-4"
            aria-hidden
          />
          <Input
            type="search"
            role="combobox"
            aria-label="Search documents"
            aria-expanded={results.length > 0}
            aria-controls="search-results"
            aria-activedescendant={results.length ? optionId(current) : undefined}
            placeholder="Search passages…"
            className="pl-9"
            autoFocus
            value={text}
            onChange={(event) => type(event.target.value)}
            onKeyDown={onKeyDown}
          />
        </div>
        {/* A choice of kinds only where the workspace has several (or one is chosen). */}
        {kinds.length > 1 || kind !== null ? (
          <OptionalSelect
            label="Type"
            noneLabel="All types"
            options={kinds.map((value) => ({ value, label: DOCUMENT_KINDS[value] }))}
            value={kind}
            onChange={(next) => filter({ kind: next })}
            className="w-32 shrink-0"
          />
        ) : null}
        {documentList.length > 0 ? (
          <OptionalSelect
            label="Document"
            noneLabel="All documents"
            options={documentList.map((d) => ({ value: d.id, label: d.title }))}
            value={documentId}
            onChange={(next) => filter({ documentId: next })}
            className="w-48 shrink-0"
          />
        ) : null}
        {collectionList.length > 0 ? (
          <OptionalSelect
            label="Collection"
            noneLabel="All collections"
            options={collectionList.map((c) => ({ value: c.id, label: c.name }))}
            value={collectionId}
            onChange={(next) => filter({ collectionId: next })}
            className="w-44 shrink-0"
          />
        ) : null}
      </div>
      <FilterChips
        chips={[
          ...chip('collectionId', collectionList.find((c) => c.id === collectionId)?.name),
          ...chip('documentId', documentList.find((d) => d.id === documentId)?.title),
          ...chip('kind', kind ? DOCUMENT_KINDS[kind] : undefined),
        ]}
        onRemove={(key) => filter({ [key]: null })}
      />
      {!query ? (
        <EmptyState icon={SearchIcon} title="Type to search your documents">
          Search finds the passages that match across the workspace, highlighted, and takes you to
          the page they are on.
        </EmptyState>
      ) : search.isError ? (
        <EmptyState icon={TriangleAlertIcon} title="Search failed">
          {errorMessage(search.error)}
        </EmptyState>
      ) : search.isPending ? (
        <ResultSkeletons />
      ) : results.length === 0 ? (
        <EmptyState icon={SearchXIcon} title="No passages match">
          Nothing in{' '}
          {documentId && !collectionId
            ? 'this document'
            : kind || collectionId
              ? 'these documents'
              : 'the workspace'}{' '}
          matches “{query}”. Try other words
          {documentId || collectionId || kind ? ' or another filter' : ''}.
        </EmptyState>
      ) : (
        <div className="grid gap-3">
          <ResultCount count={results.length} />
          <ul
            id="search-results"
            role="listbox"
            aria-label="Search results"
            className="grid gap-3"
            aria-busy={search.isPlaceholderData}
          >
            {results.map((result, index) => (
              <ResultCard
                key={result.chunk_id}
                id={optionId(index)}
                result={result}
                href={resultHref(workspaceId, result)}
                active={index === current}
                onOpen={() => void open(result)}
              />
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}
