import { SearchIcon } from 'lucide-react'
import { EmptyState } from '@/components/layout/empty-state'
import { PageHeader } from '@/components/layout/page-header'

export default function SearchRoute() {
  return (
    <>
      <PageHeader
        title="Search"
        description="Find passages across every document in the workspace."
      />
      <EmptyState icon={SearchIcon} title="Nothing to search yet">
        Once the library has documents, search finds the passages that match, highlighted, and takes
        you straight to the page they are on.
      </EmptyState>
    </>
  )
}
