import { useMutation } from '@tanstack/react-query'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'

export const enrollTotpSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Name this authenticator app')
    .max(60, 'Use at most 60 characters'),
})

export type EnrollTotpInput = z.infer<typeof enrollTotpSchema>

/**
 * Starts adding an authenticator app: the factor stays unverified (and does nothing) until a
 * code from the app confirms it. Enrolments abandoned earlier are removed first.
 */
export async function enrollTotp({ name }: EnrollTotpInput, abandonedIds: string[]) {
  for (const factorId of abandonedIds) {
    const { error } = await supabase.auth.mfa.unenroll({ factorId })
    if (error) throw error
  }
  const { data, error } = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: name })
  if (error) throw error
  return { factorId: data.id, secret: data.totp.secret, uri: data.totp.uri }
}

export type PendingTotp = Awaited<ReturnType<typeof enrollTotp>>

export function useEnrollTotp(abandonedIds: string[]) {
  return useMutation({ mutationFn: (input: EnrollTotpInput) => enrollTotp(input, abandonedIds) })
}
