import type { SupabaseClient } from '@supabase/supabase-js'
import { DOCUMENTS_BUCKET } from './ingest-file.ts'

/**
 * Deletes a document: its original in Storage first (nothing in the database removes
 * Storage objects), then the row, whose chunks go with it (on delete cascade).
 */
export async function deleteDocument(supabase: SupabaseClient, documentId: string) {
  const { data, error } = await supabase
    .from('documents')
    .select('storage_path')
    .eq('id', documentId)
    .maybeSingle<{ storage_path: string | null }>()
  if (error) throw new Error(error.message)
  if (!data) return
  if (data.storage_path) {
    const removed = await supabase.storage.from(DOCUMENTS_BUCKET).remove([data.storage_path])
    if (removed.error) throw new Error(removed.error.message)
  }
  const deleted = await supabase.from('documents').delete().eq('id', documentId)
  if (deleted.error) throw new Error(deleted.error.message)
}
