import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import { expiries } from '../utils/token-status'
import { accessTokenKeys } from './keys'

export const accessTokenSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the token a name, such as the app that will use it')
    .max(100, 'At most 100 characters'),
  expiry: z.enum(expiries),
  scope: z.enum(['read', 'write']),
})

export type AccessTokenInput = z.infer<typeof accessTokenSchema>

const days: Record<AccessTokenInput['expiry'], number | null> = {
  '30': 30,
  '90': 90,
  '365': 365,
  never: null,
}

/** Creates a token; the answer holds the secret, which is never readable again. */
export async function createAccessToken({
  workspaceId,
  name,
  expiry,
  scope,
}: AccessTokenInput & { workspaceId: string }) {
  const { data, error } = await supabase.rpc('create_access_token', {
    workspace_id: workspaceId,
    name,
    scope,
    // Left out for "never": the parameter defaults to null.
    expires_in_days: days[expiry] ?? undefined,
  })
  if (error) throw error
  return data as { id: string; token: string }
}

export function useCreateAccessToken(workspaceId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: AccessTokenInput) => createAccessToken({ workspaceId, ...input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessTokenKeys.list(workspaceId) }),
  })
}
