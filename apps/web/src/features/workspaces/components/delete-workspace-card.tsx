import { useState } from 'react'
import { ConfirmDialog } from '@/components/layout/confirm-dialog'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { useDeleteWorkspace } from '../api/delete-workspace'
import type { Workspace } from '../api/types'

/** Owners only; the name must be typed out, since nothing here can be undone. */
export function DeleteWorkspaceCard({
  workspace,
  onDeleted,
}: {
  workspace: Workspace
  onDeleted: () => void
}) {
  const [typed, setTyped] = useState('')
  const remove = useDeleteWorkspace({ onSuccess: onDeleted })
  if (workspace.role !== 'owner') return null
  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle>Delete workspace</CardTitle>
        <CardDescription>
          Deletes the workspace with all of its documents, conversations and memberships. This
          cannot be undone.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ConfirmDialog
          trigger={<Button variant="destructive">Delete workspace…</Button>}
          onOpenChange={() => setTyped('')}
          title={`Delete “${workspace.name}”?`}
          description="Everything in it is deleted for every member. Type the workspace’s name to confirm."
          confirmLabel="Delete forever"
          pendingLabel="Deleting…"
          destructive
          disabled={typed !== workspace.name}
          onConfirm={() => remove.mutateAsync(workspace.id)}
        >
          <div className="grid gap-2">
            <Label htmlFor="confirm-name">Workspace name</Label>
            <Input
              id="confirm-name"
              autoComplete="off"
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
            />
          </div>
        </ConfirmDialog>
      </CardContent>
    </Card>
  )
}
