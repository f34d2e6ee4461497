import { Avatar, AvatarFallback } from '@/components/ui/avatar'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import type { Member } from '../api/get-members'
import type { MemberRole } from '../utils/roles'
import { RoleSelect } from './role-select'

type MemberRowProps = {
  member: Member
  isSelf: boolean
  canManage: boolean
  busy: boolean
  onRoleChange: (role: MemberRole) => void
  onRemove: () => void
}

export function MemberRow({
  member,
  isSelf,
  canManage,
  busy,
  onRoleChange,
  onRemove,
}: MemberRowProps) {
  return (
    <li className="flex flex-wrap items-center gap-3 px-4 py-3" data-testid="member-row">
      <Avatar className="size-9">
        <AvatarFallback style={{ backgroundColor: member.color }} className="text-sm text-white">
          {member.name.slice(0, 1).toUpperCase()}
        </AvatarFallback>
      </Avatar>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium">
          {member.name}{' '}
          {isSelf ? <span className="text-muted-foreground font-normal">(you)</span> : null}
        </p>
        {member.email ? (
          <p className="text-muted-foreground truncate text-xs">{member.email}</p>
        ) : null}
      </div>
      {canManage ? (
        <RoleSelect
          value={member.role}
          onChange={onRoleChange}
          disabled={busy}
          label={`Role of ${member.name}`}
        />
      ) : (
        <Badge variant="outline" className="capitalize">
          {member.role}
        </Badge>
      )}
      {canManage && !isSelf ? (
        <Button
          size="sm"
          variant="ghost"
          disabled={busy}
          onClick={onRemove}
          aria-label={`Remove ${member.name}`}
        >
          Remove
        </Button>
      ) : null}
    </li>
  )
}
