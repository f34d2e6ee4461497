// Generated from packages/core/src/ingest/replace-document.ts by `npm run sync:core`: edit that file, not this one.
import type { SupabaseClient } from '@supabase/supabase-js'
import { DOCUMENTS_BUCKET } from './storage-path.ts'

/**
 * Swaps an indexed new version in for the document it replaces (one transaction in the
 * replace_document RPC: the new row becomes ready with the next version number, the old row
 * goes with its chunks), then removes the old original through the Storage API, the only way
 * hosted Supabase allows. Throws when the swap is refused; the old version is then untouched.
 * Returns a warning when the old original could not be removed (the swap stands).
 */
export async function swapInNewVersion(
  supabase: SupabaseClient,
  newId: string,
): Promise<string | undefined> {
  const { data, error } = await supabase
    .rpc('replace_document', { new_id: newId })
    .single<{ replaced_storage_path: string | null }>()
  if (error) {
    // The answer may be lost after the swap committed: then the new version is the document.
    if (await isSwappedIn(supabase, newId)) return "The previous version's file was left behind."
    throw new Error(`the new version could not replace the old one: ${error.message}`)
  }
  if (!data.replaced_storage_path) return undefined
  // The swap stands whatever happens here, so nothing may throw.
  const removed = await supabase.storage
    .from(DOCUMENTS_BUCKET)
    .remove([data.replaced_storage_path])
    .catch((cause: unknown) => ({
      error: cause instanceof Error ? cause : new Error(String(cause)),
    }))
  if (removed.error) {
    return `The previous version's file could not be removed: ${removed.error.message}`
  }
  return undefined
}

async function isSwappedIn(supabase: SupabaseClient, id: string): Promise<boolean> {
  const { data } = await supabase
    .from('documents')
    .select('status, replaces_id')
    .eq('id', id)
    .maybeSingle<{ status: string; replaces_id: string | null }>()
  return data?.status === 'ready' && data.replaces_id === null
}
