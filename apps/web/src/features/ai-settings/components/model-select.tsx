import { Label } from '@/components/ui/label'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select'

/** Radix Select has no empty value: "none" stands for null. */
const none = 'none'

type ModelSelectProps = {
  id: string
  label: string
  noneLabel: string
  models: { id: string; label: string }[]
  value: string | null
  disabled: boolean
  onChange: (model: string | null) => void
}

/** One model choice; a saved model the server no longer offers still shows, marked. */
export function ModelSelect({
  id,
  label,
  noneLabel,
  models,
  value,
  disabled,
  onChange,
}: ModelSelectProps) {
  const offered = value === null || models.some((m) => m.id === value)
  const options = offered ? models : [...models, { id: value, label: `${value} (unavailable)` }]
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Select
        value={value ?? none}
        disabled={disabled}
        onValueChange={(next) => onChange(next === none ? null : next)}
      >
        <SelectTrigger id={id} aria-label={label} className="w-full sm:w-96">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={none}>{noneLabel}</SelectItem>
          {options.map((model) => (
            <SelectItem key={model.id} value={model.id}>
              {model.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  )
}
