import { SearchIcon } from 'lucide-react'
import { Input } from '@/components/ui/input'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select'
import { documentTypes, typeLabels } from '@/lib/format'
import type { LibraryQuery, Sort } from '../utils/library-view'

const statuses = [
  ['all', 'Any status'],
  ['processing', 'Processing'],
  ['interrupted', 'Interrupted'],
  ['ready', 'Ready'],
  ['failed', 'Failed'],
] as const

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

/** Search titles, filter by status and type, choose the order. */
export function LibraryToolbar({ query, onChange }: LibraryToolbarProps) {
  return (
    <div className="flex flex-wrap items-center gap-2 px-4 py-3 sm:px-8">
      <div className="relative min-w-48 flex-1">
        <SearchIcon className="text-muted-foreground absolute top-2.5 left-3 size-4" aria-hidden />
        <Input
          type="search"
          aria-label="Search titles"
          placeholder="Search titles…"
          className="pl-9"
          value={query.search}
          onChange={(event) => onChange({ ...query, search: event.target.value })}
        />
      </div>
      <Select
        value={query.status}
        onValueChange={(status) => onChange({ ...query, status: status as LibraryQuery['status'] })}
      >
        <SelectTrigger aria-label="Status" className="w-36">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {statuses.map(([value, label]) => (
            <SelectItem key={value} value={value}>
              {label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <Select
        value={query.type}
        onValueChange={(type) => onChange({ ...query, type: type as LibraryQuery['type'] })}
      >
        <SelectTrigger aria-label="Type" className="w-32">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value="all">Any type</SelectItem>
          {documentTypes.map((type) => (
            <SelectItem key={type} value={type}>
              {typeLabels[type]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
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
