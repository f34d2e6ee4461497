import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { z } from 'zod'
import { errorMessage } from '@/lib/errors'
import { supabase } from '@/lib/supabase'
import { documentKeys } from './keys'

/** Periods as typed: comma-separated, within documents.periods' limits (20, 400 characters). */
export const documentPeriodsSchema = z
  .string()
  .max(400, 'Keep the periods under 400 characters.')
  .refine((text) => splitPeriods(text).length <= 20, 'Name at most 20 periods.')

export function splitPeriods(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,;\n]/)
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ]
}

/**
 * Sets the years, quarters or dates a document covers: import detects them, an editor knows
 * better. Search favours the document for questions that name them.
 */
export async function setDocumentPeriods({ id, periods }: { id: string; periods: string[] }) {
  const { data, error } = await supabase
    .from('documents')
    .update({ periods })
    .eq('id', id)
    .select('id')
    .maybeSingle()
  if (error) throw error
  // RLS hides the row from someone who may no longer change it: nothing was updated.
  if (!data) throw new Error('You can no longer change this document.')
}

export function useSetDocumentPeriods() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: setDocumentPeriods,
    onSuccess: async (_, { id }) => {
      toast.success('Period saved')
      await queryClient.invalidateQueries({ queryKey: documentKeys.detail(id) })
    },
    onError: (error) => toast.error(`Could not save the period: ${errorMessage(error)}`),
  })
}
