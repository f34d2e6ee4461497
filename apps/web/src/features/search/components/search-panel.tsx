import { SearchIcon, SearchXIcon, TriangleAlertIcon } from 'lucide-react'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { EmptyState } from '@/components/layout/empty-state'
import { OptionalSelect } from '@/components/layout/optional-select'
import { Input } from '@/components/ui/input'
import { errorMessage } from '@/lib/errors'
import { documentHref } from '@/lib/links'
import { useSearchableDocuments } from '../api/get-searchable-documents'
import { useSearchChunks, type SearchResult } from '../api/search-chunks'
import { useDebouncedValue } from '../hooks/use-debounced-value'
import { DOCUMENT_KINDS, type DocumentKind, kindsPresent } from '../utils/kinds'
import { ResultCard } from './result-card'
import { ResultSkeletons } from './result-skeletons'

const optionId = (index: number) => `search-result-${index}`

/** Where a result opens: its document in the viewer, scrolled to the passage. */
const resultHref = (workspaceId: string, result: SearchResult) =>
  documentHref(workspaceId, result.document_id, result.chunk_id)

/** The search box and its results, searched as you type; ↑/↓ choose a result, Enter opens it. */
export function SearchPanel({ workspaceId }: { workspaceId: string }) {
  const [text, setText] = useState('')
  const [documentId, setDocumentId] = useState<string | null>(null)
  const [kind, setKind] = useState<DocumentKind | null>(null)
  const [active, setActive] = useState(0)
  const query = useDebouncedValue(text.trim())
  const search = useSearchChunks(workspaceId, query, { documentId, kind })
  const documents = useSearchableDocuments(workspaceId).data ?? []
  const kinds = kindsPresent(documents.map((d) => d.mime_type))
  const navigate = useNavigate()
  const results = query ? (search.data ?? []) : []
  const current = Math.min(active, results.length - 1)

  function onKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive(Math.max(0, Math.min(results.length - 1, current + step)))
    } else if (event.key === 'Enter' && results[current]) {
      event.preventDefault()
      void navigate(resultHref(workspaceId, results[current]))
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
            onChange={(event) => {
              setText(event.target.value)
              setActive(0)
            }}
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
            onChange={(next) => {
              setKind(next)
              setActive(0)
            }}
            className="w-32 shrink-0"
          />
        ) : null}
        {documents.length > 0 ? (
          <OptionalSelect
            label="Document"
            noneLabel="All documents"
            options={documents.map((d) => ({ value: d.id, label: d.title }))}
            value={documentId}
            onChange={(next) => {
              setDocumentId(next)
              setActive(0)
            }}
            className="w-48 shrink-0"
          />
        ) : null}
      </div>
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
          Nothing in {documentId ? 'this document' : kind ? 'these documents' : 'the workspace'}{' '}
          matches “{query}”. Try other words{documentId || kind ? ' or another filter' : ''}.
        </EmptyState>
      ) : (
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
            />
          ))}
        </ul>
      )}
    </div>
  )
}
