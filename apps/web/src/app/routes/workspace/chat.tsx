import { MessagesSquareIcon } from 'lucide-react'
import { EmptyState } from '@/components/layout/empty-state'
import { PageHeader } from '@/components/layout/page-header'

export default function ChatRoute() {
  return (
    <>
      <PageHeader
        title="Chat"
        description="Ask questions; answers cite the passages they come from."
      />
      <EmptyState icon={MessagesSquareIcon} title="No conversations yet">
        Chat arrives with the library: ask about your documents and every answer comes with numbered
        citations that open the exact passage. Share a conversation and the whole workspace sees it
        live.
      </EmptyState>
    </>
  )
}
