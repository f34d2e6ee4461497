// search: passages of the token's workspace for a query, through the search function.
import { z } from 'npm:zod@4.6.7'
import { DOCUMENT_KINDS } from '../search/input.ts'
import type { CallToolResult } from './deps.ts'
import { checkDocumentIds, documentIdsInput } from './document-ids.ts'
import { documentLink, pages } from './links.ts'
import { callFunction, problemOf, type Session } from './session.ts'

export const searchInput = {
  query: z
    .string()
    .trim()
    .min(1, 'the query must not be empty')
    .max(1000, 'the query must be at most 1000 characters')
    .describe('What to look for, in words or a phrase'),
  limit: z
    .int()
    .min(1, 'limit must be between 1 and 50')
    .max(50, 'limit must be between 1 and 50')
    .optional()
    .describe('How many passages (default 10, at most 50)'),
  document_ids: documentIdsInput('Search only these documents'),
  types: z
    .array(z.enum(DOCUMENT_KINDS))
    .min(1)
    .optional()
    .describe('Search only these kinds of document'),
}

type Row = {
  chunk_id: string
  document_id: string
  title: string
  page_start: number | null
  page_end: number | null
  score: number
  snippet: string
}

export async function search(
  session: Session,
  args: { query: string; limit?: number; document_ids?: string[]; types?: string[] },
): Promise<CallToolResult> {
  await checkDocumentIds(session, args.document_ids)
  const res = await callFunction(session, 'search', {
    workspace_id: session.grant.workspaceId,
    query: args.query,
    limit: args.limit ?? 10,
    document_ids: args.document_ids,
    types: args.types,
  })
  if (!res.ok) throw await problemOf(res, 'The search failed')
  const { results } = (await res.json()) as { results: Row[] }
  const passages = results.map((row) => ({
    document_id: row.document_id,
    chunk_id: row.chunk_id,
    title: row.title,
    pages: pages(row.page_start, row.page_end) || null,
    score: Math.round(row.score * 1000) / 1000,
    snippet: row.snippet,
    link: documentLink(session.grant.workspaceId, row.document_id, row.chunk_id),
  }))
  const text = passages.length
    ? passages
        .map(
          (p, i) =>
            `${i + 1}. ${p.title}${p.pages ? `, ${p.pages}` : ''} (score ${p.score})\n` +
            `   ${p.snippet.replace(/\s+/g, ' ')}\n   document_id ${p.document_id}, chunk_id ${p.chunk_id}\n   ${p.link}`,
        )
        .join('\n')
    : `No passage matches “${args.query}”.`
  return { content: [{ type: 'text', text }], structuredContent: { passages } }
}
