import { type LoaderFunctionArgs, useNavigate, useSearchParams } from 'react-router'
import { Logo } from '@/components/layout/logo'
import { ThemeToggle } from '@/components/layout/theme-toggle'
import { UserMenu } from '@/features/auth/components/user-menu'
import { MyInvitations } from '@/features/members/components/my-invitations'
import { getWorkspacesQueryOptions } from '@/features/workspaces/api/get-workspaces'
import { CreateWorkspaceDialog } from '@/features/workspaces/components/create-workspace-dialog'
import { TwoFactorNotice } from '@/features/workspaces/components/two-factor-notice'
import { WorkspaceList } from '@/features/workspaces/components/workspace-list'
import { queryClient } from '@/lib/query-client'
import { requireSession } from '../session'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSession(request)
  void queryClient.prefetchQuery(getWorkspacesQueryOptions())
  return null
}

export default function WorkspacesRoute() {
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const open = (workspaceId: string) => navigate(`/w/${workspaceId}`)
  return (
    <div className="bg-muted/30 min-h-svh">
      <header className="bg-background flex items-center justify-between gap-4 border-b px-4 py-3 sm:px-8">
        <Logo />
        <div className="flex items-center gap-1">
          <ThemeToggle />
          <div className="w-48 max-w-[40vw]">
            <UserMenu onSignedOut={() => navigate('/sign-in')} />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-3xl px-4 py-10 sm:px-8">
        <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-2xl font-semibold tracking-tight">Workspaces</h1>
            <p className="text-muted-foreground mt-1 text-sm">
              Each workspace has its own documents, conversations and members.
            </p>
          </div>
          <CreateWorkspaceDialog key={params.get('new') ?? ''} onCreated={open} />
        </div>
        <MyInvitations />
        <TwoFactorNotice />
        <WorkspaceList onCreated={open} />
      </main>
    </div>
  )
}
