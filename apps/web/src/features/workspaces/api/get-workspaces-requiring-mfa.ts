import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { workspaceKeys } from './keys'

/**
 * The caller's workspaces that require two-factor sign-in which this session cannot open
 * (it did not give a code): only their ids and names, so the app can say why.
 */
export async function getWorkspacesRequiringMfa(signal: AbortSignal) {
  const { data, error } = await supabase.rpc('workspaces_requiring_mfa').abortSignal(signal)
  if (error) throw error
  return data
}

export const getWorkspacesRequiringMfaQueryOptions = () =>
  queryOptions({
    queryKey: workspaceKeys.requiringMfa(),
    queryFn: ({ signal }) => getWorkspacesRequiringMfa(signal),
  })

export function useWorkspacesRequiringMfa() {
  return useQuery(getWorkspacesRequiringMfaQueryOptions())
}
