import type { Database } from '@/lib/database.types'

export type WorkspaceRole = 'owner' | 'editor' | 'viewer'

export type Workspace = Database['public']['Tables']['workspaces']['Row'] & {
  /** The signed-in user's role in it. */
  role: WorkspaceRole
}
