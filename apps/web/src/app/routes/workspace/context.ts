import { useOutletContext } from 'react-router'
import type { Workspace } from '@/features/workspaces/api/types'

export type WorkspaceContext = { workspace: Workspace; userId: string }

export function useWorkspaceContext() {
  return useOutletContext<WorkspaceContext>()
}
