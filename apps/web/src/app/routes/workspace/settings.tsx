import { useNavigate } from 'react-router'
import { PageHeader } from '@/components/layout/page-header'
import { AccessTokensCard } from '@/features/access-tokens/components/access-tokens-card'
import { ConnectClientsCard } from '@/features/access-tokens/components/connect-clients-card'
import { AiModelsCard } from '@/features/ai-settings/components/ai-models-card'
import { DeleteWorkspaceCard } from '@/features/workspaces/components/delete-workspace-card'
import { RenameWorkspaceCard } from '@/features/workspaces/components/rename-workspace-card'
import { RequireMfaCard } from '@/features/workspaces/components/require-mfa-card'
import { lastWorkspace } from '@/features/workspaces/utils/last-workspace'
import { useWorkspaceContext } from './context'

export default function SettingsRoute() {
  const { workspace } = useWorkspaceContext()
  const navigate = useNavigate()
  return (
    <>
      <PageHeader
        title="Settings"
        description="This workspace’s name, its AI models, your access tokens, and its removal."
      />
      <div className="mx-auto grid max-w-3xl gap-6 px-4 py-8 sm:px-8">
        <RenameWorkspaceCard workspace={workspace} />
        <RequireMfaCard workspace={workspace} />
        <AiModelsCard workspaceId={workspace.id} canEdit={workspace.role === 'owner'} />
        <AccessTokensCard
          workspaceId={workspace.id}
          workspaceName={workspace.name}
          canWrite={workspace.role !== 'viewer'}
        />
        <ConnectClientsCard />
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
