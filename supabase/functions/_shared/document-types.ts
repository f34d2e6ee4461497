import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.119.1'
import { typeOfDocument } from './core/extract/document-type.ts'

export type DocumentType = ReturnType<typeof typeOfDocument>

/**
 * The types of the documents passages come from, in one read as the caller (RLS), so search
 * results and citations carry what labels their places (pages, slides or neither) and the
 * browser need not read each document. A document the caller cannot see is left out.
 */
export async function documentTypes(
  client: SupabaseClient,
  authorization: string | null,
  documentIds: string[],
): Promise<Map<string, DocumentType>> {
  const ids = [...new Set(documentIds)]
  if (ids.length === 0) return new Map()
  let query = client.from('documents').select('id, mime_type, storage_path, title').in('id', ids)
  if (authorization) query = query.setHeader('Authorization', authorization)
  const { data, error } = await query
  if (error) throw new Error(`Could not read the documents' types: ${error.message}`)
  return new Map(data.map((doc) => [doc.id as string, typeOfDocument(doc)]))
}
