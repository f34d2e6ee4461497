import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select'
import { type MemberRole, roleDescriptions, roles } from '../utils/roles'

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
      <SelectTrigger id={id} aria-label={label} className="w-32 capitalize">
        <SelectValue />
      </SelectTrigger>
      <SelectContent align="end">
        {roles.map((role) => (
          <SelectItem key={role} value={role} className="capitalize">
            <span className="flex flex-col">
              <span className="capitalize">{role}</span>
            </span>
            <span className="sr-only">: {roleDescriptions[role]}</span>
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
}
