import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { collectionKeys } from './keys'

/** Deletes a collection; its documents stay in the library. */
export async function deleteCollection({ id }: { id: string; workspaceId: string }) {
  const { error } = await supabase.from('collections').delete().eq('id', id)
  if (error) throw error
}

/** Errors are shown by the confirm dialog, which stays open to try again. */
export function useDeleteCollection() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteCollection,
    onSuccess: (_data, { workspaceId }) =>
      queryClient.invalidateQueries({ queryKey: collectionKeys.list(workspaceId) }),
  })
}
