import { useMemo, useState } from 'react'
import type * as React from 'react'
import { useStartConversation } from '@/features/chat/hooks/use-start-conversation'
import { type Collection, useCollections } from '@/features/collections/api/get-collections'
import { useAddToCollection } from '@/features/collections/api/set-membership'
import { CollectionBadge } from '@/features/collections/components/collection-badge'
import { CollectionDialog } from '@/features/collections/components/collection-dialog'
import { CollectionsBar } from '@/features/collections/components/collections-bar'
import { DeleteCollectionDialog } from '@/features/collections/components/delete-collection-dialog'
import { SelectionBar } from '@/features/collections/components/selection-bar'
import { useCollectionsRealtime } from '@/features/collections/hooks/use-collections-realtime'
import { useLibrary } from '@/features/library/api/get-documents'
import { DocumentLibrary } from '@/features/library/components/document-library'
import { useUploadsInto } from './use-uploads-into'

type CollectionsLibraryProps = Omit<
  React.ComponentProps<typeof DocumentLibrary>,
  'above' | 'only' | 'onClearOnly' | 'selected' | 'onSelect' | 'tags'
>

/**
 * The library with its collections: filter by one, tick documents to add them to a
 * collection or ask about them, and start a conversation kept to a collection.
 */
export function CollectionsLibrary(props: CollectionsLibraryProps) {
  const { workspaceId, canEdit } = props
  const collections = useCollections(workspaceId)
  useCollectionsRealtime(workspaceId)
  const library = useLibrary(workspaceId)
  const add = useAddToCollection()
  const uploadInto = useUploadsInto(workspaceId)
  const { start } = useStartConversation(workspaceId)
  const [activeId, setActiveId] = useState<string | null>(null)
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [editing, setEditing] = useState<Collection | null | undefined>(undefined)
  const [deleting, setDeleting] = useState<Collection | null>(null)
  // A collection made from the selection's menu takes the selection once it exists.
  const [forSelection, setForSelection] = useState(false)

  const data = collections.data
  const active = data?.collections.find((c) => c.id === activeId) ?? null
  const documents = library.data?.documents
  const live = useMemo(() => new Set(documents?.map((d) => d.id)), [documents])
  // Documents deleted meanwhile drop out of the selection.
  const chosen = [...selected].filter((id) => live.has(id))
  const total = documents?.filter((d) => !d.replaces_id || !live.has(d.replaces_id)).length ?? 0

  const byDocument = useMemo(() => {
    const map = new Map<string, Collection[]>()
    for (const collection of data?.collections ?? []) {
      for (const id of data?.members.get(collection.id) ?? []) {
        map.set(id, [...(map.get(id) ?? []), collection])
      }
    }
    return map
  }, [data])

  const select = (ids: string[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current)
      for (const id of ids) {
        if (on) next.add(id)
        else next.delete(id)
      }
      return next
    })

  const addSelection = (collection: Collection) =>
    add.mutate(
      { workspaceId, collection, documentIds: chosen },
      { onSuccess: () => setSelected(new Set()) },
    )

  const tags = (documentId: string) => {
    const of = byDocument.get(documentId)
    if (!of) return null
    return (
      <>
        {of.slice(0, 2).map((c) => (
          <CollectionBadge key={c.id} name={c.name} color={c.color} className="h-5 max-w-32" />
        ))}
        {of.length > 2 ? (
          <span className="text-muted-foreground text-xs" title={of.map((c) => c.name).join(', ')}>
            +{of.length - 2}
          </span>
        ) : null}
      </>
    )
  }

  return (
    <>
      <DocumentLibrary
        {...props}
        above={
          <>
            {data ? (
              <CollectionsBar
                data={data}
                total={total}
                active={active}
                onActive={(collection) => setActiveId(collection?.id ?? null)}
                onNew={canEdit ? () => setEditing(null) : undefined}
                onEdit={canEdit ? setEditing : undefined}
                onDelete={canEdit ? setDeleting : undefined}
                onAsk={(collection) => start(undefined, { collectionIds: [collection.id] })}
                onDropFiles={canEdit ? uploadInto : undefined}
              />
            ) : null}
            {chosen.length > 0 ? (
              <SelectionBar
                count={chosen.length}
                collections={data?.collections ?? []}
                onAdd={canEdit ? addSelection : undefined}
                onAddToNew={
                  canEdit
                    ? () => {
                        setForSelection(true)
                        setEditing(null)
                      }
                    : undefined
                }
                onAsk={() => start(undefined, { documentIds: chosen })}
                onClear={() => setSelected(new Set())}
              />
            ) : null}
          </>
        }
        only={active ? (data?.members.get(active.id) ?? null) : null}
        onClearOnly={() => setActiveId(null)}
        selected={selected}
        onSelect={select}
        tags={tags}
      />
      <CollectionDialog
        workspaceId={workspaceId}
        editing={editing}
        onClose={() => setEditing(undefined)}
        onSaved={(collection) => {
          if (forSelection && chosen.length > 0) addSelection(collection)
          setForSelection(false)
        }}
      />
      <DeleteCollectionDialog
        collection={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(collection) => {
          if (collection.id === activeId) setActiveId(null)
        }}
      />
    </>
  )
}
