import { FormError } from '@/components/layout/form-error'
import { Skeleton } from '@/components/ui/skeleton'
import { errorMessage } from '@/lib/errors'
import { useMembers } from '../api/get-members'
import { useRemoveMember } from '../api/remove-member'
import { useUpdateMemberRole } from '../api/update-member-role'
import { MemberRow } from './member-row'

type MembersListProps = { workspaceId: string; userId: string; canManage: boolean }

export function MembersList({ workspaceId, userId, canManage }: MembersListProps) {
  const members = useMembers(workspaceId)
  const changeRole = useUpdateMemberRole(workspaceId)
  const remove = useRemoveMember(workspaceId, { failure: 'Could not remove the member' })

  if (members.isPending) {
    return (
      <div aria-busy="true" aria-label="Loading members" className="grid gap-2">
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-14 w-full" />
      </div>
    )
  }
  if (members.isError) return <FormError message={errorMessage(members.error)} />
  return (
    <section aria-labelledby="members-heading" className="grid gap-3">
      <h2 id="members-heading" className="text-sm font-semibold">
        {members.data.length === 1 ? '1 member' : `${members.data.length} members`}
      </h2>
      <ul className="bg-card divide-y rounded-xl border shadow-xs">
        {members.data.map((member) => (
          <MemberRow
            key={member.userId}
            member={member}
            isSelf={member.userId === userId}
            canManage={canManage}
            busy={changeRole.isPending || remove.isPending}
            onRoleChange={(role) => changeRole.mutate({ userId: member.userId, role })}
            onRemove={() => remove.mutate(member.userId)}
          />
        ))}
      </ul>
    </section>
  )
}
