import { ConfirmDialog } from '@/components/layout/confirm-dialog'
import { Button } from '@/components/ui/button'
import { useMembers } from '../api/get-members'
import { useRemoveMember } from '../api/remove-member'

type LeaveWorkspaceButtonProps = {
  workspaceId: string
  workspaceName: string
  userId: string
  onLeft: () => void
}

export function LeaveWorkspaceButton({
  workspaceId,
  workspaceName,
  userId,
  onLeft,
}: LeaveWorkspaceButtonProps) {
  const leave = useRemoveMember(workspaceId, { onSuccess: onLeft })
  const members = useMembers(workspaceId)
  const owners = members.data?.filter((member) => member.role === 'owner') ?? []
  // The database refuses to leave a workspace without an owner; say so before trying.
  if (owners.length === 1 && owners[0]!.userId === userId) {
    return (
      <p className="text-muted-foreground text-sm">
        You are the only owner. To leave, make someone else an owner first.
      </p>
    )
  }
  return (
    <ConfirmDialog
      trigger={<Button variant="outline">Leave workspace</Button>}
      title={`Leave “${workspaceName}”?`}
      description="You lose access to its documents and conversations until someone invites you again."
      confirmLabel="Leave"
      pendingLabel="Leaving…"
      cancelLabel="Stay"
      destructive
      onConfirm={() => leave.mutateAsync(userId)}
    />
  )
}
