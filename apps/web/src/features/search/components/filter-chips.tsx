import { XIcon } from 'lucide-react'

/** A filter that is set: its name, and which one it is. */
export type FilterChip<K extends string> = { key: K; label: string }

type FilterChipsProps<K extends string> = {
  chips: FilterChip<K>[]
  onRemove: (key: K) => void
}

/** The filters a search keeps to, each with a button that takes it away. */
export function FilterChips<K extends string>({ chips, onRemove }: FilterChipsProps<K>) {
  if (chips.length === 0) return null
  return (
    <ul aria-label="Searching in" className="-mt-3 flex flex-wrap items-center gap-1.5">
      {chips.map((chip) => (
        <li
          key={chip.key}
          className="bg-background inline-flex h-6 max-w-64 items-center gap-1.5 rounded-full border px-2 text-xs font-medium"
        >
          <span className="truncate" title={chip.label}>
            {chip.label}
          </span>
          <button
            type="button"
            onClick={() => onRemove(chip.key)}
            aria-label={`Stop searching only in ${chip.label}`}
            className="text-muted-foreground hover:text-foreground focus-visible:ring-ring/50 -mr-1 rounded-full p-0.5 outline-none focus-visible:ring-2"
          >
            <XIcon className="size-3" aria-hidden />
          </button>
        </li>
      ))}
    </ul>
  )
}
