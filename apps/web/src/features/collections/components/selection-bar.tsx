import { FolderPlusIcon, MessageSquareTextIcon, PlusIcon, XIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { cn } from '@/lib/utils'
import type { Collection } from '../api/get-collections'
import { colorDot } from '../utils/colors'

type SelectionBarProps = {
  count: number
  collections: Collection[]
  /** Editors and owners: put the selection in a collection, or in a new one. */
  onAdd?: (collection: Collection) => void
  onAddToNew?: () => void
  onAsk: () => void
  onClear: () => void
}

/**
 * What can be done with the documents ticked in the library. It sticks while the list
 * scrolls, at the shell's --page-top: below the Reconnecting bar and the phone's top bar.
 */
export function SelectionBar({
  count,
  collections,
  onAdd,
  onAddToNew,
  onAsk,
  onClear,
}: SelectionBarProps) {
  return (
    <section
      aria-label="Selected documents"
      className="bg-background/95 sticky top-(--page-top) z-20 mx-4 mt-3 flex flex-wrap items-center gap-2 rounded-lg border px-3 py-2 shadow-sm backdrop-blur sm:mx-8"
    >
      <p className="mr-auto text-sm font-medium" aria-live="polite">
        {count === 1 ? '1 document selected' : `${count} documents selected`}
      </p>
      {onAdd && onAddToNew ? (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button size="sm" variant="outline">
              <FolderPlusIcon aria-hidden /> Add to collection
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            {collections.map((collection) => (
              <DropdownMenuItem key={collection.id} onSelect={() => onAdd(collection)}>
                <span
                  aria-hidden
                  className={cn('size-2 rounded-full', colorDot[collection.color])}
                />
                {collection.name}
              </DropdownMenuItem>
            ))}
            {collections.length > 0 ? <DropdownMenuSeparator /> : null}
            <DropdownMenuItem onSelect={onAddToNew}>
              <PlusIcon aria-hidden /> New collection…
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      ) : null}
      <Button size="sm" onClick={onAsk}>
        <MessageSquareTextIcon aria-hidden /> Ask about {count === 1 ? 'it' : 'these'}
      </Button>
      <Button size="sm" variant="ghost" onClick={onClear}>
        <XIcon aria-hidden /> Clear
      </Button>
    </section>
  )
}
