import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { supabase } from '@/lib/supabase'
import { accessTokenKeys } from './keys'

/** Revokes one of the signed-in person's tokens: its next request is refused. */
export async function revokeAccessToken(id: string) {
  const { error } = await supabase.rpc('revoke_access_token', { id })
  if (error) throw error
}

export function useRevokeAccessToken(workspaceId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id }: { id: string; name: string }) => revokeAccessToken(id),
    onSuccess: (_, { name }) => {
      toast.success(`“${name}” is revoked. Clients using it are refused from now on.`)
      return queryClient.invalidateQueries({ queryKey: accessTokenKeys.list(workspaceId) })
    },
  })
}
