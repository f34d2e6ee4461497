import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select'

const ALL = 'all'

type FilterSelectProps<T extends string> = {
  /** The select's accessible name, e.g. 'Type'. */
  label: string
  /** The first option, which filters nothing (value null), e.g. 'All types'. */
  allLabel: string
  options: { value: T; label: string }[]
  value: T | null
  onChange: (value: T | null) => void
  className: string
}

/** Narrows the search to one of `options`, or to none of them in particular. */
export function FilterSelect<T extends string>(props: FilterSelectProps<T>) {
  const { label, allLabel, options, value, onChange, className } = props
  return (
    <Select
      value={value ?? ALL}
      onValueChange={(next) => onChange(next === ALL ? null : (next as T))}
    >
      <SelectTrigger aria-label={label} className={className}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>{allLabel}</SelectItem>
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
}
