import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from 'react-router'
import { PageHeader } from '@/components/layout/page-header'
import { InviteMemberDialog } from '@/features/members/components/invite-member-dialog'
import { LeaveWorkspaceButton } from '@/features/members/components/leave-workspace-button'
import { MembersList } from '@/features/members/components/members-list'
import { PendingInvitations } from '@/features/members/components/pending-invitations'
import { workspaceKeys } from '@/features/workspaces/api/keys'
import { lastWorkspace } from '@/features/workspaces/utils/last-workspace'
import { useWorkspaceContext } from './context'

export default function MembersRoute() {
  const { workspace, userId } = useWorkspaceContext()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const isOwner = workspace.role === 'owner'
  return (
    <>
      <PageHeader
        title="Members"
        description={
          isOwner
            ? 'Invite people, choose what they can do, and remove access.'
            : 'The people who share this workspace.'
        }
        actions={isOwner ? <InviteMemberDialog workspaceId={workspace.id} /> : null}
      />
      <div className="mx-auto grid max-w-3xl gap-8 px-4 py-8 sm:px-8">
        {isOwner ? <PendingInvitations workspaceId={workspace.id} /> : null}
        <MembersList workspaceId={workspace.id} userId={userId} canManage={isOwner} />
        <div className="flex justify-end">
          <LeaveWorkspaceButton
            workspaceId={workspace.id}
            workspaceName={workspace.name}
            userId={userId}
            onLeft={async () => {
              lastWorkspace.set(null)
              queryClient.removeQueries({ queryKey: workspaceKeys.detail(workspace.id) })
              await queryClient.invalidateQueries({ queryKey: workspaceKeys.list() })
              navigate('/workspaces', { replace: true })
            }}
          />
        </div>
      </div>
    </>
  )
}
