import { PageHeader } from '@/components/layout/page-header'
import { SearchPanel } from '@/features/search/components/search-panel'
import { useWorkspaceContext } from './context'

export default function SearchRoute() {
  const { workspace } = useWorkspaceContext()
  return (
    <>
      <PageHeader
        title="Search"
        description="Find passages across every document in the workspace."
      />
      <SearchPanel key={workspace.id} workspaceId={workspace.id} />
    </>
  )
}
