import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { failureToast } from '@/lib/failure-toast'
import { supabase } from '@/lib/supabase'
import { collectionKeys } from './keys'

type MembershipInput = {
  workspaceId: string
  collection: { id: string; name: string }
  documentIds: string[]
}

/** Adds documents to a collection; those already in it stay as they are. */
export async function addToCollection({ workspaceId, collection, documentIds }: MembershipInput) {
  const rows = documentIds.map((id) => ({
    collection_id: collection.id,
    document_id: id,
    workspace_id: workspaceId,
  }))
  const { error } = await supabase
    .from('collection_documents')
    .upsert(rows, { ignoreDuplicates: true })
  if (error) throw error
}

/** Takes documents out of a collection (the documents themselves stay). */
export async function removeFromCollection({ collection, documentIds }: MembershipInput) {
  const { error } = await supabase
    .from('collection_documents')
    .delete()
    .eq('collection_id', collection.id)
    .in('document_id', documentIds)
  if (error) throw error
}

const count = (n: number) => (n === 1 ? '1 document' : `${n} documents`)

export function useAddToCollection() {
  const queryClient = useQueryClient()
  const mutation = useMutation({
    mutationFn: addToCollection,
    onSuccess: (_data, { workspaceId, collection, documentIds }) => {
      toast.success(`Added ${count(documentIds.length)} to ${collection.name}`)
      return queryClient.invalidateQueries({ queryKey: collectionKeys.list(workspaceId) })
    },
    onError: (error, input) =>
      failureToast(`Could not add to ${input.collection.name}`, error, () =>
        mutation.mutate(input),
      ),
  })
  return mutation
}

export function useRemoveFromCollection() {
  const queryClient = useQueryClient()
  const mutation = useMutation({
    mutationFn: removeFromCollection,
    onSuccess: (_data, { workspaceId }) =>
      queryClient.invalidateQueries({ queryKey: collectionKeys.list(workspaceId) }),
    onError: (error, input) =>
      failureToast(`Could not take it out of ${input.collection.name}`, error, () =>
        mutation.mutate(input),
      ),
  })
  return mutation
}
