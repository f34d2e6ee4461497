import { ChevronRightIcon, LayersIcon } from 'lucide-react'
import { Link } from 'react-router'
import { EmptyState } from '@/components/layout/empty-state'
import { FormError } from '@/components/layout/form-error'
import { Skeleton } from '@/components/ui/skeleton'
import { errorMessage } from '@/lib/errors'
import { useWorkspaces } from '../api/get-workspaces'
import { CreateWorkspaceDialog } from './create-workspace-dialog'
import { RoleBadge } from './role-badge'

export function WorkspaceList({ onCreated }: { onCreated: (workspaceId: string) => void }) {
  const workspaces = useWorkspaces()
  if (workspaces.isPending) {
    return (
      <div aria-busy="true" aria-label="Loading workspaces" className="grid gap-2">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-16 w-full" />
        ))}
      </div>
    )
  }
  if (workspaces.isError) return <FormError message={errorMessage(workspaces.error)} />
  if (workspaces.data.length === 0) {
    return (
      <EmptyState
        icon={LayersIcon}
        title="No workspaces yet"
        action={<CreateWorkspaceDialog onCreated={onCreated} />}
      >
        Create a workspace for your team’s documents, or open an invitation link someone sent you.
      </EmptyState>
    )
  }
  return (
    <ul className="bg-card divide-y overflow-hidden rounded-xl border shadow-xs">
      {workspaces.data.map((workspace) => (
        <li key={workspace.id}>
          <Link
            to={`/w/${workspace.id}`}
            className="hover:bg-accent/60 focus-visible:bg-accent focus-visible:ring-ring/50 flex items-center gap-4 px-4 py-3.5 transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-inset"
          >
            <span
              aria-hidden
              className="bg-secondary grid size-9 shrink-0 place-items-center rounded-lg text-sm font-semibold"
            >
              {workspace.name.slice(0, 1).toUpperCase()}
            </span>
            <span className="min-w-0 flex-1">
              <span className="block truncate font-medium">{workspace.name}</span>
              <span className="text-muted-foreground block text-xs">
                Created {new Date(workspace.created_at).toLocaleDateString()}
              </span>
            </span>
            <RoleBadge role={workspace.role} />
            <ChevronRightIcon className="text-muted-foreground size-4" aria-hidden />
          </Link>
        </li>
      ))}
    </ul>
  )
}
