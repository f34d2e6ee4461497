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
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline">Leave workspace</Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Leave “{workspaceName}”?</AlertDialogTitle>
          <AlertDialogDescription>
            You lose access to its documents and conversations until someone invites you again.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Stay</AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={leave.isPending}
            onClick={() => leave.mutate(userId)}
          >
            {leave.isPending ? 'Leaving…' : 'Leave'}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}
