import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select'
import { useSearchableDocuments } from '../api/get-searchable-documents'
import { DOCUMENT_KINDS, type DocumentKind, kindsPresent } from '../utils/kinds'

const ALL = 'all'

type TypeFilterProps = {
  workspaceId: string
  value: DocumentKind | null
  onChange: (kind: DocumentKind | null) => void
}

/** Narrows the search to one kind of document; shown when the workspace has several kinds. */
export function TypeFilter({ workspaceId, value, onChange }: TypeFilterProps) {
  const documents = useSearchableDocuments(workspaceId)
  const kinds = kindsPresent((documents.data ?? []).map((d) => d.mime_type))
  if (kinds.length < 2 && value === null) return null
  return (
    <Select
      value={value ?? ALL}
      onValueChange={(next) => onChange(next === ALL ? null : (next as DocumentKind))}
    >
      <SelectTrigger aria-label="Type" className="w-32 shrink-0">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>All types</SelectItem>
        {kinds.map((kind) => (
          <SelectItem key={kind} value={kind}>
            {DOCUMENT_KINDS[kind]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
}
