import { useMutation } from '@tanstack/react-query'
import { toast } from 'sonner'
import { deleteDocument } from '@sourcebook/core/ingest/delete-document'
import { supabase } from '@/lib/supabase'

/**
 * Removes the original from Storage, then the row (its chunks go with it). A failure is shown
 * by the confirm dialog that asked.
 */
export function useDeleteDocument({ onSuccess }: { onSuccess: () => void }) {
  return useMutation({
    mutationFn: (documentId: string) => deleteDocument(supabase, documentId),
    onSuccess: () => {
      toast.success('Document deleted')
      onSuccess()
    },
  })
}
