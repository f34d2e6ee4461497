import { MessageSquareTextIcon, PencilIcon, PlusIcon, Trash2Icon } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'
import type { Collection, Collections } from '../api/get-collections'
import { colorDot } from '../utils/colors'

type CollectionsBarProps = {
  data: Collections
  /** Documents in the library, for "All documents". */
  total: number
  /** The collection the library is filtered to, or null for all documents. */
  active: Collection | null
  onActive: (collection: Collection | null) => void
  /** Editors and owners: create, edit and delete. */
  onNew?: () => void
  onEdit?: (collection: Collection) => void
  onDelete?: (collection: Collection) => void
  onAsk: (collection: Collection) => void
  /** Editors: files dropped on a collection are uploaded into it. */
  onDropFiles?: (collection: Collection, files: File[]) => void
}

const numberFormat = new Intl.NumberFormat()

/**
 * The library's collections as filters, each with its count; the chosen one says what it
 * is for and offers to ask about it (and, for editors, to edit or delete it).
 */
export function CollectionsBar({
  data,
  total,
  active,
  onActive,
  onNew,
  onEdit,
  onDelete,
  onAsk,
  onDropFiles,
}: CollectionsBarProps) {
  const [target, setTarget] = useState<string | null>(null)
  if (data.collections.length === 0 && !onNew) return null
  // Handled here, not by the page's drop zone behind, which would upload them loose.
  const dropProps = (collection: Collection) =>
    onDropFiles
      ? {
          onDragOver: (event: React.DragEvent) => {
            if (!event.dataTransfer.types.includes('Files')) return
            event.preventDefault()
            event.stopPropagation()
            setTarget(collection.id)
          },
          onDragLeave: () => setTarget(null),
          onDrop: (event: React.DragEvent) => {
            event.preventDefault()
            event.stopPropagation()
            setTarget(null)
            const files = [...event.dataTransfer.files]
            if (files.length > 0) onDropFiles(collection, files)
          },
        }
      : {}
  const filter = (selected: boolean) =>
    cn(
      'focus-visible:ring-ring/50 inline-flex h-8 shrink-0 items-center gap-2 rounded-full border px-3 text-sm outline-none focus-visible:ring-[3px]',
      selected
        ? 'bg-accent text-accent-foreground border-foreground/30 font-medium'
        : 'hover:bg-accent/60',
    )
  const count = (n: number) => (
    <span className="text-muted-foreground tabular-nums">{numberFormat.format(n)}</span>
  )
  return (
    <section aria-label="Collections" className="grid gap-2 px-4 pt-3 sm:px-8">
      <div className="-mx-1 flex items-center gap-2 overflow-x-auto px-1 py-1">
        <button
          type="button"
          aria-pressed={active === null}
          className={filter(active === null)}
          onClick={() => onActive(null)}
        >
          All documents {count(total)}
        </button>
        {data.collections.map((collection) => (
          <button
            key={collection.id}
            type="button"
            aria-pressed={active?.id === collection.id}
            className={cn(
              filter(active?.id === collection.id),
              // Above the page's drop overlay (z-40), below the Reconnecting bar (z-50).
              target === collection.id && 'ring-primary relative z-[45] ring-2',
            )}
            onClick={() => onActive(active?.id === collection.id ? null : collection)}
            {...dropProps(collection)}
          >
            <span aria-hidden className={cn('size-2 rounded-full', colorDot[collection.color])} />
            <span className="max-w-40 truncate">{collection.name}</span>
            {count(data.members.get(collection.id)?.size ?? 0)}
          </button>
        ))}
        {onNew ? (
          <Button variant="ghost" size="sm" onClick={onNew}>
            <PlusIcon aria-hidden /> New collection
          </Button>
        ) : null}
      </div>
      {active ? (
        <div className="bg-muted/40 flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border px-3 py-2">
          <p className="text-muted-foreground min-w-0 flex-1 text-sm">
            <span className="text-foreground font-medium">{active.name}</span>
            {active.description ? ` — ${active.description}` : ''}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={() => onAsk(active)}>
              <MessageSquareTextIcon aria-hidden /> Ask about {active.name}
            </Button>
            {onEdit ? (
              <Button size="sm" variant="outline" onClick={() => onEdit(active)}>
                <PencilIcon aria-hidden /> Edit
              </Button>
            ) : null}
            {onDelete ? (
              <Button size="sm" variant="outline" onClick={() => onDelete(active)}>
                <Trash2Icon aria-hidden /> Delete
              </Button>
            ) : null}
          </div>
        </div>
      ) : null}
    </section>
  )
}
