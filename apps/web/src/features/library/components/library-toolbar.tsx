import { SearchIcon } from 'lucide-react'
import { OptionalSelect } from '@/components/layout/optional-select'
import { Input } from '@/components/ui/input'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select'
import { documentTypes, typeLabels } from '@/lib/format'
import type { DocumentStatus, LibraryQuery, Sort } from '../utils/library-view'

const statuses: { value: DocumentStatus; label: string }[] = [
  { value: 'processing', label: 'Processing' },
  { value: 'interrupted', label: 'Interrupted' },
  { value: 'ready', label: 'Ready' },
  { value: 'failed', label: 'Failed' },
]
const types = documentTypes.map((value) => ({ value, label: typeLabels[value] }))

const sorts: [string, string, Sort][] = [
  ['newest', 'Newest first', { key: 'date', descending: true }],
  ['oldest', 'Oldest first', { key: 'date', descending: false }],
  ['title', 'Title A–Z', { key: 'title', descending: false }],
  ['title-desc', 'Title Z–A', { key: 'title', descending: true }],
  ['largest', 'Largest first', { key: 'size', descending: true }],
  ['smallest', 'Smallest first', { key: 'size', descending: false }],
]

const sortId = (sort: Sort) =>
  sorts.find(([, , s]) => s.key === sort.key && s.descending === sort.descending)?.[0] ?? 'newest'

type LibraryToolbarProps = {
  query: LibraryQuery
  onChange: (query: LibraryQuery) => void
}

/** Search titles and file names, filter by status and type, choose the order. */
export function LibraryToolbar({ query, onChange }: LibraryToolbarProps) {
  return (
    <div className="flex flex-wrap items-center gap-2 px-4 py-3 sm:px-8">
      <div className="relative min-w-48 flex-1">
        <SearchIcon className="text-muted-foreground absolute top-2.5 left-3 size-4" aria-hidden />
        <Input
          type="search"
          aria-label="Search titles and file names"
          placeholder="Title or file name"
          className="pl-9"
          value={query.search}
          onChange={(event) => onChange({ ...query, search: event.target.value })}
        />
      </div>
      <OptionalSelect
        label="Status"
        noneLabel="All statuses"
        options={statuses}
        value={query.status}
        onChange={(status) => onChange({ ...query, status })}
        className="w-36"
      />
      <OptionalSelect
        label="Type"
        noneLabel="All types"
        options={types}
        value={query.type}
        onChange={(type) => onChange({ ...query, type })}
        className="w-32"
      />
      <Select
        value={sortId(query.sort)}
        onValueChange={(id) =>
          onChange({ ...query, sort: sorts.find(([value]) => value === id)?.[2] ?? query.sort })
        }
      >
        <SelectTrigger aria-label="Sort" className="w-36">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {sorts.map(([value, label]) => (
            <SelectItem key={value} value={value}>
              {label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  )
}
