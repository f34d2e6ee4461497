import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { useRenameWorkspace } from '../api/rename-workspace'
import type { Workspace } from '../api/types'
import { WorkspaceNameForm } from './workspace-name-form'

export function RenameWorkspaceCard({ workspace }: { workspace: Workspace }) {
  const rename = useRenameWorkspace()
  const isOwner = workspace.role === 'owner'
  return (
    <Card>
      <CardHeader>
        <CardTitle>General</CardTitle>
        <CardDescription>
          {isOwner ? 'The name every member sees.' : 'Only an owner can rename this workspace.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <WorkspaceNameForm
          key={workspace.name}
          defaultName={workspace.name}
          submitLabel="Save"
          disabled={!isOwner}
          pending={rename.isPending}
          error={null}
          onSubmit={({ name }) => rename.mutate({ id: workspace.id, name })}
        />
      </CardContent>
    </Card>
  )
}
