import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import { documentKeys } from './keys'

export const documentTitleSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'Give the document a title.')
    .max(500, 'Keep the title under 500 characters.'),
})

export type DocumentTitleInput = z.infer<typeof documentTitleSchema>

export async function renameDocument({ id, title }: DocumentTitleInput & { id: string }) {
  const { data, error } = await supabase
    .from('documents')
    .update({ title })
    .eq('id', id)
    .select('id')
    .maybeSingle()
  if (error) throw error
  // RLS hides the row from someone who may no longer change it: nothing was updated.
  if (!data) throw new Error('You can no longer rename this document.')
}

export function useRenameDocument() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: renameDocument,
    onSuccess: async (_, { id }) => {
      toast.success('Document renamed')
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: documentKeys.detail(id) }),
        // Titles shown elsewhere (search, filters) refresh when next shown; nothing else,
        // such as an open PDF's bytes, is fetched again now.
        queryClient.invalidateQueries({ refetchType: 'none' }),
      ])
    },
    meta: { failure: 'Could not rename the document' },
  })
}
