import { useNavigate } from 'react-router'
import { PageHeader } from '@/components/layout/page-header'
import { DeleteWorkspaceCard } from '@/features/workspaces/components/delete-workspace-card'
import { RenameWorkspaceCard } from '@/features/workspaces/components/rename-workspace-card'
import { lastWorkspace } from '@/features/workspaces/utils/last-workspace'
import { useWorkspaceContext } from './context'

export default function SettingsRoute() {
  const { workspace } = useWorkspaceContext()
  const navigate = useNavigate()
  return (
    <>
      <PageHeader title="Settings" description="This workspace’s name, and its removal." />
      <div className="mx-auto grid max-w-3xl gap-6 px-4 py-8 sm:px-8">
        <RenameWorkspaceCard workspace={workspace} />
        <DeleteWorkspaceCard
          workspace={workspace}
          onDeleted={() => {
            lastWorkspace.set(null)
            navigate('/workspaces', { replace: true })
          }}
        />
      </div>
    </>
  )
}
