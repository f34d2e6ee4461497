import { useEffect, useRef } from 'react'
import type { Collection } from '@/features/collections/api/get-collections'
import { useAddToCollection } from '@/features/collections/api/set-membership'
import { useUploads } from '@/features/upload/hooks/use-uploads'

type Drop = {
  collection: Collection
  /** How many files were dropped, and the queue's items before the drop. */
  count: number
  before: Set<string>
  /** The drop's items that are over, with the document each became (if any). */
  over: Map<string, string | null>
}

const finished = ['refused', 'failed', 'cancelled']

/**
 * Uploads files into a collection: they join the upload queue like any others and, once all
 * of them are over, those that became documents (or were already in the library) are added
 * to the collection together.
 */
export function useUploadsInto(workspaceId: string) {
  const { items, add } = useUploads(workspaceId)
  const addToCollection = useAddToCollection()
  const drops = useRef<Drop[]>([])
  const known = useRef(new Set<string>())

  useEffect(() => {
    known.current = new Set(items.map((i) => i.id))
    for (const drop of drops.current) {
      for (const item of items) {
        if (drop.before.has(item.id) || drop.over.has(item.id) || item.kind !== 'upload') continue
        if (item.state === 'ready') drop.over.set(item.id, item.documentId ?? null)
        else if (item.state === 'duplicate') drop.over.set(item.id, item.duplicate?.id ?? null)
        else if (finished.includes(item.state)) drop.over.set(item.id, null)
      }
    }
    const done = drops.current.filter((drop) => drop.over.size >= drop.count)
    drops.current = drops.current.filter((drop) => drop.over.size < drop.count)
    for (const drop of done) {
      const documentIds = [...drop.over.values()].filter((id): id is string => id !== null)
      if (documentIds.length > 0) {
        addToCollection.mutate({ workspaceId, collection: drop.collection, documentIds })
      }
    }
  }, [items, addToCollection, workspaceId])

  return (collection: Collection, files: File[]) => {
    // What appears in the queue after this drop came from it.
    drops.current.push({
      collection,
      count: files.length,
      before: new Set(known.current),
      over: new Map(),
    })
    add(files)
  }
}
