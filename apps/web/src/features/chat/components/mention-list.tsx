import { FileTextIcon, FolderIcon } from 'lucide-react'
import { cn } from '@/lib/utils'
import type { MentionOption } from '../utils/mention'

type MentionListProps = {
  id: string
  options: MentionOption[]
  highlighted: number
  onPick: (option: MentionOption) => void
}

export const mentionOptionId = (listId: string, index: number) => `${listId}-${index}`

/**
 * The documents and collections an @ could name, above the composer. The question box keeps
 * focus and points at the highlighted one (aria-activedescendant); a click picks one too.
 */
export function MentionList({ id, options, highlighted, onPick }: MentionListProps) {
  return (
    <ul
      id={id}
      role="listbox"
      aria-label="Add to what this conversation answers from"
      className="bg-popover text-popover-foreground absolute inset-x-0 bottom-full z-30 mb-2 max-h-64 overflow-y-auto rounded-lg border p-1 shadow-md"
    >
      {options.map((option, index) => {
        const Icon = option.kind === 'collection' ? FolderIcon : FileTextIcon
        return (
          <li
            key={option.id}
            id={mentionOptionId(id, index)}
            role="option"
            aria-selected={index === highlighted}
            // Keeps focus in the question box.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onPick(option)}
            className={cn(
              'flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm',
              index === highlighted && 'bg-accent text-accent-foreground',
            )}
          >
            <Icon className="text-muted-foreground size-4 shrink-0" aria-hidden />
            <span className="truncate">{option.name}</span>
            <span className="text-muted-foreground ml-auto shrink-0 text-xs">
              {option.kind === 'collection' ? 'Collection' : 'Document'}
            </span>
          </li>
        )
      })}
    </ul>
  )
}
