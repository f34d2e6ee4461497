import { Badge } from '@/components/ui/badge'
import type { WorkspaceRole } from '../api/types'

export function RoleBadge({ role }: { role: WorkspaceRole }) {
  return (
    <Badge variant={role === 'owner' ? 'secondary' : 'outline'} className="capitalize">
      {role}
    </Badge>
  )
}
