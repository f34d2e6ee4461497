import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { z } from 'zod'
import { errorMessage } from '@/lib/errors'
import { supabase } from '@/lib/supabase'
import { aiSettingsKeys } from './keys'

/** The choices workspaces.reranking allows (its check constraint is the server's rule). */
export const rerankingSchema = z.enum(['off', 'judge', 'model'])
export type Reranking = z.infer<typeof rerankingSchema>

export const updateRerankingInputSchema = z.object({
  workspaceId: z.uuid(),
  reranking: rerankingSchema,
})
export type UpdateRerankingInput = z.infer<typeof updateRerankingInputSchema>

/** Owners only: the update policy refuses anyone else, which `select()` makes visible. */
export async function updateReranking(input: UpdateRerankingInput) {
  const { workspaceId, reranking } = updateRerankingInputSchema.parse(input)
  const { data, error } = await supabase
    .from('workspaces')
    .update({ reranking })
    .eq('id', workspaceId)
    .select('id')
  if (error) throw error
  if (data.length === 0) throw new Error('Only an owner can change the reranking.')
}

export function useUpdateReranking() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateReranking,
    // The select stays usable while a choice is saved: choices made meanwhile are saved one
    // after another, so the last one chosen is the one kept.
    scope: { id: 'update-reranking' },
    onSuccess: async (_data, input) => {
      await queryClient.invalidateQueries({ queryKey: aiSettingsKeys.workspace(input.workspaceId) })
      toast.success('Reranking saved')
    },
    onError: (error) => toast.error(`Could not change the reranking: ${errorMessage(error)}`),
  })
}
