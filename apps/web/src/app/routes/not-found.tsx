import { FileQuestionIcon } from 'lucide-react'
import { Link } from 'react-router'
import { EmptyState } from '@/components/layout/empty-state'
import { Button } from '@/components/ui/button'

export default function NotFoundRoute() {
  return (
    <main className="min-h-svh pt-[10vh]">
      <EmptyState
        icon={FileQuestionIcon}
        title="Page not found"
        action={
          <Button asChild>
            <Link to="/">Go home</Link>
          </Button>
        }
      >
        The address may be mistyped, or the page was moved.
      </EmptyState>
    </main>
  )
}
