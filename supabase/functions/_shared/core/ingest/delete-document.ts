// Generated from packages/core/src/ingest/delete-document.ts by `npm run sync:core`: edit that file, not this one.
import type { SupabaseClient } from '@supabase/supabase-js'
import { DOCUMENTS_BUCKET } from './storage-path.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Deletes a document and any pending new version of it: their originals in Storage first
 * (nothing in the database removes Storage objects), then the rows, whose chunks and vectors
 * go with them (on delete cascade). Throws when the caller may not delete (a viewer: both
 * Storage and the table refuse through RLS, so nothing is touched). Gone already: nothing.
 */
export async function deleteDocument(supabase: SupabaseClient, documentId: string) {
  if (!UUID.test(documentId)) throw new Error('not a document id')
  const { data, error } = await supabase
    .from('documents')
    .select('id, storage_path')
    .or(`id.eq.${documentId},replaces_id.eq.${documentId}`)
    .returns<{ id: string; storage_path: string | null }[]>()
  if (error) throw new Error(error.message)
  if (data.length === 0) return
  const paths = data.flatMap((d) => (d.storage_path ? [d.storage_path] : []))
  if (paths.length > 0) {
    const removed = await supabase.storage.from(DOCUMENTS_BUCKET).remove(paths)
    if (removed.error) throw new Error(removed.error.message)
  }
  const ids = data.map((d) => d.id)
  const deleted = await supabase.from('documents').delete().in('id', ids).select('id')
  if (deleted.error) throw new Error(deleted.error.message)
  if (deleted.data.length === 0) throw new Error('Only editors and owners can delete documents.')
}
