import { OptionalSelect } from '@/components/layout/optional-select'
import { Label } from '@/components/ui/label'

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
      <OptionalSelect
        id={id}
        label={label}
        noneLabel={noneLabel}
        options={options.map((model) => ({ value: model.id, label: model.label }))}
        value={value}
        disabled={disabled}
        onChange={onChange}
        className="w-full sm:w-96"
      />
    </div>
  )
}
