import { deleteDocument } from '@sourcebook/core/ingest/delete-document'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { supabase } from '@/lib/supabase'
import { patchLibrary } from '../utils/patch-library'
import type { Library } from './get-documents'
import { libraryKeys } from './keys'

/**
 * Removes the original from Storage, then the row (its chunks go with it). A failure is shown
 * by the confirm dialog that asked.
 */
export function useDeleteDocument(workspaceId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => deleteDocument(supabase, id).then(() => id),
    onSuccess: (id) => {
      queryClient.setQueryData<Library>(
        libraryKeys.documents(workspaceId),
        (library) => library && patchLibrary(library, { deleted: id }),
      )
      toast.success('Document deleted')
    },
  })
}
