import type { SupabaseClient } from '@supabase/supabase-js'

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase()

/**
 * The id of the workspace's collection named `name` (case and spaces at the ends aside, as the
 * database's unique index compares them), created when there is none.
 */
export async function findOrCreateCollection(
  supabase: SupabaseClient,
  workspaceId: string,
  name: string,
): Promise<string> {
  const find = async () => {
    const { data, error } = await supabase
      .from('collections')
      .select('id, name')
      .eq('workspace_id', workspaceId)
    if (error) throw new Error(`could not read the collections: ${error.message}`)
    return (data as { id: string; name: string }[]).find((c) => sameName(c.name, name))?.id
  }
  const found = await find()
  if (found) return found
  const { data, error } = await supabase
    .from('collections')
    .insert({ workspace_id: workspaceId, name: name.trim() })
    .select('id')
    .single()
  // Made meanwhile by someone else (unique name): use theirs.
  if (error?.code === '23505') {
    const raced = await find()
    if (raced) return raced
  }
  if (error) throw new Error(`could not create the collection “${name}”: ${error.message}`)
  return (data as { id: string }).id
}

/** Puts a document in the collection; already there is fine. */
export async function addToCollection(
  supabase: SupabaseClient,
  workspaceId: string,
  collectionId: string,
  documentId: string,
) {
  const { error } = await supabase
    .from('collection_documents')
    .upsert(
      { collection_id: collectionId, document_id: documentId, workspace_id: workspaceId },
      { ignoreDuplicates: true },
    )
  if (error) throw new Error(`could not add it to the collection: ${error.message}`)
}
