import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select'

/** Radix Select has no empty value: "none" stands for null (no option may use it). */
const none = 'none'

type OptionalSelectProps<T extends string> = {
  /** The select's accessible name, e.g. 'Type'. */
  label: string
  /** The first option, which stands for no choice (value null), e.g. 'All types'. */
  noneLabel: string
  options: { value: T; label: string }[]
  value: T | null
  onChange: (value: T | null) => void
  className: string
  id?: string
  disabled?: boolean
}

/** One of `options`, or none of them in particular. */
export function OptionalSelect<T extends string>(props: OptionalSelectProps<T>) {
  const { label, noneLabel, options, value, onChange, className, id, disabled } = props
  return (
    <Select
      value={value ?? none}
      disabled={disabled}
      onValueChange={(next) => onChange(next === none ? null : (next as T))}
    >
      <SelectTrigger id={id} aria-label={label} className={className}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={none}>{noneLabel}</SelectItem>
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
}
