import { PlusIcon } from 'lucide-react'
import { useState } from 'react'
import type * as React from 'react'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog'
import { useCreateWorkspace } from '../api/create-workspace'
import { WorkspaceNameForm } from './workspace-name-form'

type CreateWorkspaceDialogProps = {
  onCreated: (workspaceId: string) => void
  trigger?: React.ReactNode
}

export function CreateWorkspaceDialog({ onCreated, trigger }: CreateWorkspaceDialogProps) {
  const [open, setOpen] = useState(false)
  const create = useCreateWorkspace()
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next)
        if (!next) create.reset()
      }}
    >
      <DialogTrigger asChild>
        {trigger ?? (
          <Button>
            <PlusIcon /> New workspace
          </Button>
        )}
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create a workspace</DialogTitle>
          <DialogDescription>
            A workspace holds a team’s documents and conversations. You will be its owner.
          </DialogDescription>
        </DialogHeader>
        <WorkspaceNameForm
          submitLabel="Create workspace"
          pending={create.isPending}
          error={create.error}
          onSubmit={(input) =>
            create.mutate(input, {
              onSuccess: (workspace) => {
                setOpen(false)
                onCreated(workspace.id)
              },
            })
          }
        />
      </DialogContent>
    </Dialog>
  )
}
