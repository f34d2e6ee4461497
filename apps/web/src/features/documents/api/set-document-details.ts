import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import { documentKeys } from './keys'

/** A comma-separated list as typed: its items trimmed, blanks and repeats dropped. */
export function splitList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,;\n]/)
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ]
}

// Within documents.periods' and documents.names' limits: 20 items, 400 and 1,000 characters.
const list = (noun: string, characters: number) =>
  z
    .string()
    .max(characters, `Keep the ${noun} under ${characters.toLocaleString('en')} characters.`)
    .refine((text) => splitList(text).length <= 20, `Name at most 20 ${noun}.`)

export const documentDetailsSchema = z.object({
  periods: list('periods', 400),
  names: list('names', 1000),
})

export type DocumentDetailsInput = z.infer<typeof documentDetailsSchema>

/**
 * Sets the years, quarters or dates a document covers and the organisations it names: import
 * detects them, an editor knows better. Search favours the document for questions that name
 * them.
 */
export async function setDocumentDetails({
  id,
  periods,
  names,
}: DocumentDetailsInput & { id: string }) {
  const { data, error } = await supabase
    .from('documents')
    .update({ periods: splitList(periods), names: splitList(names) })
    .eq('id', id)
    .select('id')
    .maybeSingle()
  if (error) throw error
  // RLS hides the row from someone who may no longer change it: nothing was updated.
  if (!data) throw new Error('You can no longer change this document.')
}

export function useSetDocumentDetails() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: setDocumentDetails,
    onSuccess: async (_, { id }) => {
      toast.success('Details saved')
      await queryClient.invalidateQueries({ queryKey: documentKeys.detail(id) })
    },
    meta: { failure: 'Could not save the details' },
  })
}
