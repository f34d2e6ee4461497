import { FileTextIcon, FolderIcon, XIcon } from 'lucide-react'
import type { Conversation } from '../api/types'
import { type ScopeItem, useScope } from '../api/get-scope'
import { useUpdateConversation } from '../api/update-conversation'

type ScopeChipsProps = {
  conversation: Conversation
  /** The creator may take documents and collections out of the scope. */
  editable: boolean
}

/**
 * What the conversation's answers come from: chips for its collections and documents
 * (removable by its creator), or the whole workspace.
 */
export function ScopeChips({ conversation, editable }: ScopeChipsProps) {
  const scope = useScope(conversation)
  const update = useUpdateConversation()
  if (scope.data === undefined) return null
  if (scope.data === null) {
    return <p className="text-muted-foreground text-xs">Answers from the whole workspace</p>
  }
  if (scope.data.length === 0) {
    return (
      <p className="text-muted-foreground text-xs">
        Everything this conversation kept to has been deleted: there is nothing to answer from.
      </p>
    )
  }

  function remove(item: ScopeItem) {
    const documentIds = (conversation.document_ids ?? []).filter((id) => id !== item.id)
    const collectionIds = (conversation.collection_ids ?? []).filter((id) => id !== item.id)
    // The last chip taken away leaves no limit: the whole workspace again.
    const empty = documentIds.length === 0 && collectionIds.length === 0
    update.mutate({
      id: conversation.id,
      document_ids: empty ? null : documentIds,
      collection_ids: empty ? null : collectionIds,
    })
  }

  return (
    <div className="mt-1 flex flex-wrap items-center gap-1.5">
      <span className="text-muted-foreground text-xs" aria-hidden>
        Answers from
      </span>
      <ul aria-label="Answers from" className="flex flex-wrap items-center gap-1.5">
        {scope.data.map((item) => {
          const Icon = item.kind === 'collection' ? FolderIcon : FileTextIcon
          return (
            <li
              key={item.id}
              className="bg-background inline-flex h-6 max-w-56 items-center gap-1.5 rounded-full border px-2 text-xs font-medium"
            >
              <Icon className="text-muted-foreground size-3 shrink-0" aria-hidden />
              <span className="truncate" title={item.name}>
                {item.name}
              </span>
              <span className="sr-only">({item.kind})</span>
              {editable ? (
                <button
                  type="button"
                  disabled={update.isPending}
                  onClick={() => remove(item)}
                  aria-label={`Stop answering from ${item.name}`}
                  className="text-muted-foreground hover:text-foreground focus-visible:ring-ring/50 -mr-1 rounded-full p-0.5 outline-none focus-visible:ring-2"
                >
                  <XIcon className="size-3" aria-hidden />
                </button>
              ) : null}
            </li>
          )
        })}
      </ul>
    </div>
  )
}
