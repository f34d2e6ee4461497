import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { libraryKeys } from './keys'

export type StorageUsage = { used: number; quota: number }

/**
 * The bytes the workspace's files take in Storage (Storage's own sizes, which the quota
 * counts, not what documents declare) and its quota; null when the caller is not a member.
 */
export async function getStorageUsage(
  workspaceId: string,
  signal: AbortSignal,
): Promise<StorageUsage | null> {
  const { data, error } = await supabase
    .from('workspace_storage')
    .select('used_bytes, quota_bytes')
    .eq('workspace_id', workspaceId)
    .abortSignal(signal)
    .maybeSingle()
  if (error) throw error
  return data && { used: data.used_bytes ?? 0, quota: data.quota_bytes ?? 0 }
}

export const getStorageUsageQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: libraryKeys.storage(workspaceId),
    queryFn: ({ signal }) => getStorageUsage(workspaceId, signal),
  })

export function useStorageUsage(workspaceId: string) {
  return useQuery(getStorageUsageQueryOptions(workspaceId))
}
