import { CheckIcon, ChevronsUpDownIcon, LayersIcon, PlusIcon } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { useWorkspaces } from '../api/get-workspaces'
import type { Workspace } from '../api/types'

export function WorkspaceSwitcher({ current }: { current: Workspace }) {
  const workspaces = useWorkspaces()
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        {/* A long name is cut off: the title shows it whole on hover. */}
        <Button
          variant="ghost"
          className="h-auto w-full justify-start gap-2 px-2 py-1.5"
          title={current.name}
        >
          <span className="sr-only">Workspace: </span>
          <span
            aria-hidden
            className="bg-primary text-primary-foreground grid size-7 shrink-0 place-items-center rounded-md text-xs font-semibold"
          >
            {current.name.slice(0, 1).toUpperCase()}
          </span>
          <span className="min-w-0 flex-1 truncate text-left font-semibold">{current.name}</span>
          <span className="sr-only">. Switch workspace</span>
          <ChevronsUpDownIcon className="text-muted-foreground" aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-64">
        <DropdownMenuLabel>Workspaces</DropdownMenuLabel>
        {(workspaces.data ?? [current]).map((workspace) => (
          <DropdownMenuItem key={workspace.id} asChild>
            <Link to={`/w/${workspace.id}`}>
              <span className="min-w-0 flex-1 truncate" title={workspace.name}>
                {workspace.name}
              </span>
              {workspace.id === current.id ? <CheckIcon aria-label="current" /> : null}
            </Link>
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/workspaces">
            <LayersIcon /> All workspaces
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/workspaces?new=1">
            <PlusIcon /> New workspace
          </Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
