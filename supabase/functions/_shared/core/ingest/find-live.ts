// Generated from packages/core/src/ingest/find-live.ts by `npm run sync:core`: edit that file, not this one.
import type { SupabaseClient } from '@supabase/supabase-js'

/** The live (not failed) document holding these bytes in the workspace, if any: a duplicate. */
export async function findLive(supabase: SupabaseClient, workspaceId: string, sha256: string) {
  const { data, error } = await supabase
    .from('documents')
    .select('id, title')
    .eq('workspace_id', workspaceId)
    .eq('sha256', sha256)
    .neq('status', 'failed')
    .limit(1)
    .maybeSingle<{ id: string; title: string }>()
  if (error) throw new Error(`the duplicate check failed: ${error.message}`)
  return data
}
