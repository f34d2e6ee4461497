/** The document page, opened at a chunk (its passage highlighted) when one is given. */
export function documentHref(workspaceId: string, documentId: string, chunkId?: string): string {
  const path = `/w/${workspaceId}/documents/${documentId}`
  return chunkId ? `${path}?chunk=${encodeURIComponent(chunkId)}` : path
}
