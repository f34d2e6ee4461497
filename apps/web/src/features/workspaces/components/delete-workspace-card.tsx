import { useState } from 'react'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog'
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
        <AlertDialog onOpenChange={() => setTyped('')}>
          <AlertDialogTrigger asChild>
            <Button variant="destructive">Delete workspace…</Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>Delete “{workspace.name}”?</AlertDialogTitle>
              <AlertDialogDescription>
                Everything in it is deleted for every member. Type the workspace’s name to confirm.
              </AlertDialogDescription>
            </AlertDialogHeader>
            <div className="grid gap-2">
              <Label htmlFor="confirm-name">Workspace name</Label>
              <Input
                id="confirm-name"
                autoComplete="off"
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
              />
            </div>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <Button
                variant="destructive"
                disabled={typed !== workspace.name || remove.isPending}
                onClick={() => remove.mutate(workspace.id)}
              >
                {remove.isPending ? 'Deleting…' : 'Delete forever'}
              </Button>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </CardContent>
    </Card>
  )
}
