import { MessagesSquareIcon } from 'lucide-react'
import { EmptyState } from '@/components/layout/empty-state'
import { type ExampleScope, useExampleQuestions } from '../api/get-example-questions'

type ExampleQuestionsProps = {
  workspaceId: string
  /** A conversation's scope: questions about its documents only. */
  scope?: ExampleScope
  onAsk: (question: string) => void
}

/** The empty conversation: what chat does, and questions about this workspace's documents. */
export function ExampleQuestions({ workspaceId, scope, onAsk }: ExampleQuestionsProps) {
  const examples = useExampleQuestions(workspaceId, scope)
  const questions = examples.data ?? []
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <EmptyState icon={MessagesSquareIcon} title="Ask your documents">
        Answers come from the workspace’s documents, and every claim carries a numbered citation
        that opens the passage it comes from.
        {examples.isSuccess && questions.length === 0
          ? ' Add documents to the library to start.'
          : null}
      </EmptyState>
      {questions.length > 0 ? (
        <ul className="mx-auto -mt-8 grid max-w-xl gap-2 px-4 pb-8" aria-label="Example questions">
          {questions.map((question) => (
            <li key={question}>
              <button
                type="button"
                onClick={() => onAsk(question)}
                className="bg-card hover:bg-accent focus-visible:ring-ring/50 w-full rounded-lg border px-4 py-3 text-left text-sm shadow-xs transition-colors outline-none focus-visible:ring-[3px]"
              >
                {question}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
