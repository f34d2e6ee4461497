import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import { chatKeys } from './keys'

export const rateAnswerInputSchema = z.object({
  messageId: z.string().uuid(),
  rating: z.union([z.literal(1), z.literal(-1)]),
  comment: z.string().trim().max(2000, 'At most 2,000 characters').nullable(),
})

export type RateAnswerInput = z.input<typeof rateAnswerInputSchema>

/** One rating per person and answer: a second one replaces the first (an upsert on the key). */
export async function rateAnswer(input: RateAnswerInput) {
  const { messageId, rating, comment } = rateAnswerInputSchema.parse(input)
  const { error } = await supabase
    .from('message_feedback')
    .upsert({ message_id: messageId, rating, comment: comment || null })
  if (error) throw error
}

export function useRateAnswer(conversationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: rateAnswer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: chatKeys.messages(conversationId) }),
    meta: { failure: 'Could not save your rating' },
  })
}
