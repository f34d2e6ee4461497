// Generated from packages/core/src/ingest/storage-path.ts by `npm run sync:core`: edit that file, not this one.
/**
 * A file name safe as the last segment of a Storage key: no folders, no control characters,
 * only characters Supabase Storage accepts in keys, at most 200 characters, never empty.
 */
export function safeFileName(fileName: string): string {
  const base = fileName.split(/[/\\]/).pop() ?? ''
  const cleaned = base
    .normalize('NFC')
    .replace(/[^\w.\- ()!,'&$@=;+]/g, '_')
    .replace(/^\.+/, '')
    .trim()
  if (cleaned.length <= 200) return cleaned || 'file'
  const dot = cleaned.lastIndexOf('.')
  const extension = dot > 0 && cleaned.length - dot <= 16 ? cleaned.slice(dot) : ''
  return cleaned.slice(0, 200 - extension.length) + extension
}

/** `<workspace_id>/<document_id>/<file name>`: the first folder is what Storage RLS checks. */
export function documentStoragePath(workspaceId: string, documentId: string, fileName: string) {
  return `${workspaceId}/${documentId}/${safeFileName(fileName)}`
}

/** The private bucket of originals. */
export const DOCUMENTS_BUCKET = 'documents'
