import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select'
import { useSearchableDocuments } from '../api/get-searchable-documents'

const ALL = 'all'

type DocumentFilterProps = {
  workspaceId: string
  value: string | null
  onChange: (documentId: string | null) => void
}

/** Narrows the search to one document, or searches them all. */
export function DocumentFilter({ workspaceId, value, onChange }: DocumentFilterProps) {
  const documents = useSearchableDocuments(workspaceId)
  if (!documents.data?.length) return null
  return (
    <Select value={value ?? ALL} onValueChange={(next) => onChange(next === ALL ? null : next)}>
      <SelectTrigger aria-label="Document" className="w-48 shrink-0">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>All documents</SelectItem>
        {documents.data.map((document) => (
          <SelectItem key={document.id} value={document.id}>
            {document.title}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
}
