// Links into the web app for what the tools return. The app is served at the API's own origin
// by localbase; a hosted project sets APP_URL (a function secret) to where the app lives.
const appUrl = (Deno.env.get('APP_URL') || Deno.env.get('SUPABASE_URL')!).replace(/\/+$/, '')

export const documentLink = (workspaceId: string, documentId: string, chunkId?: string) =>
  `${appUrl}/w/${workspaceId}/documents/${documentId}` +
  (chunkId ? `?chunk=${encodeURIComponent(chunkId)}` : '')

export const conversationLink = (workspaceId: string, conversationId: string) =>
  `${appUrl}/w/${workspaceId}/chat/${conversationId}`

/** "p. 3" or "pp. 3–4", or '' for documents without pages. */
export function pages(start: number | null, end: number | null): string {
  if (start === null) return ''
  return end !== null && end !== start ? `pp. ${start}–${end}` : `p. ${start}`
}
