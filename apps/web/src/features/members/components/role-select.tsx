import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select'
import { type MemberRole, roleDescriptions, roleLabels, roles } from '../utils/roles'

type RoleSelectProps = {
  id?: string
  value: MemberRole
  onChange: (role: MemberRole) => void
  label: string
  disabled?: boolean
}

export function RoleSelect({ id, value, onChange, label, disabled }: RoleSelectProps) {
  return (
    <Select
      value={value}
      onValueChange={(next) => onChange(next as MemberRole)}
      disabled={disabled}
    >
      <SelectTrigger id={id} aria-label={label} className="w-32">
        <SelectValue />
      </SelectTrigger>
      <SelectContent align="end">
        {roles.map((role) => (
          <SelectItem key={role} value={role}>
            {/* One sentence for screen readers: "Editor: upload, rename and delete documents". */}
            <span aria-hidden>{roleLabels[role]}</span>
            <span className="sr-only">
              {roleLabels[role]}: {roleDescriptions[role].toLowerCase()}
            </span>
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
}
