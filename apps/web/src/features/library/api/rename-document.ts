import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import type { Library } from './get-documents'
import { libraryKeys } from './keys'

export const titleSchema = z
  .string()
  .trim()
  .min(1, 'Give the document a title.')
  .max(500, 'Keep the title under 500 characters.')

export async function renameDocument({ id, title }: { id: string; title: string }) {
  const { data, error } = await supabase
    .from('documents')
    .update({ title: titleSchema.parse(title) })
    .eq('id', id)
    .select('id, title')
  if (error) throw error
  if (data.length === 0) throw new Error('Only editors and owners can rename documents.')
  return data[0]!
}

export function useRenameDocument(workspaceId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: renameDocument,
    onSuccess: ({ id, title }) => {
      queryClient.setQueryData<Library>(libraryKeys.documents(workspaceId), (library) =>
        library
          ? {
              ...library,
              documents: library.documents.map((d) => (d.id === id ? { ...d, title } : d)),
            }
          : library,
      )
      toast.success('Document renamed')
    },
    meta: { failure: 'Could not rename the document' },
  })
}
