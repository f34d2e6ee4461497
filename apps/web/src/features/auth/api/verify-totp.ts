import { useMutation } from '@tanstack/react-query'
import { z } from 'zod'
import { queryClient } from '@/lib/query-client'
import { supabase } from '@/lib/supabase'

export const totpCodeSchema = z.object({
  code: z
    .string()
    .transform((value) => value.replace(/\s/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app')),
})

export type TotpCodeInput = z.input<typeof totpCodeSchema>

/** Proves the session with a code from the app; the session is then two-factor (AAL2). */
export async function verifyTotp(factorId: string, code: string) {
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code })
  if (error) throw error
}

export function useVerifyTotp() {
  return useMutation({
    mutationFn: ({ factorId, code }: { factorId: string; code: string }) =>
      verifyTotp(factorId, code),
    // What the session may read has changed (workspaces that require two factors open up).
    onSuccess: () => queryClient.invalidateQueries(),
  })
}
