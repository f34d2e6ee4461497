// Generated from packages/core/src/ingest/find-live.ts by `npm run sync:core`: edit that file, not this one.
import type { SupabaseClient } from '@supabase/supabase-js'

export interface LiveDocument {
  id: string
  title: string
  status: string
  updated_at: string
  storage_path: string | null
  replaces_id: string | null
}

/** The live (not failed) document holding these bytes in the workspace, if any: a duplicate. */
export async function findLive(supabase: SupabaseClient, workspaceId: string, sha256: string) {
  const { data, error } = await supabase
    .from('documents')
    .select('id, title, status, updated_at, storage_path, replaces_id')
    .eq('workspace_id', workspaceId)
    .eq('sha256', sha256)
    .neq('status', 'failed')
    .limit(1)
    .maybeSingle<LiveDocument>()
  if (error) throw new Error(`the duplicate check failed: ${error.message}`)
  return data
}
