import { z } from 'npm:zod@4.6.7'

/** The document kinds the type filter takes (search_chunks maps MIME types to these). */
export const DOCUMENT_KINDS = ['pdf', 'docx', 'html', 'md', 'txt', 'csv', 'pptx', 'xlsx'] as const

const inputSchema = z.object({
  workspace_id: z.uuid('workspace_id must be a UUID'),
  query: z
    .string('query must be a string')
    .trim()
    .min(1, 'query must not be empty')
    .max(1000, 'query must be at most 1000 characters'),
  limit: z
    .int('limit must be an integer')
    .min(1, 'limit must be between 1 and 100')
    .max(100, 'limit must be between 1 and 100')
    .default(10),
  document_ids: z
    .array(z.uuid('document_ids must be UUIDs'), 'document_ids must be an array of UUIDs')
    .max(100, 'document_ids may name at most 100 documents')
    .optional(),
  collection_ids: z
    .array(z.uuid('collection_ids must be UUIDs'), 'collection_ids must be an array of UUIDs')
    .max(100, 'collection_ids may name at most 100 collections')
    .optional(),
  types: z
    .array(
      z.enum(DOCUMENT_KINDS, `types must be among ${DOCUMENT_KINDS.join(', ')}`),
      'types must be an array of document kinds',
    )
    .min(1, 'types must name at least one kind')
    .optional(),
  // Rerank the best passages (true), never (false), or as the workspace's setting says.
  rerank: z.boolean('rerank must be true or false').optional(),
})

export type Input = z.infer<typeof inputSchema>

/** The parsed body, or the message to answer 400 with. */
export async function readInput(req: Request): Promise<{ input: Input } | { problem: string }> {
  let body: unknown
  try {
    body = await req.json()
  } catch {
    return {
      problem:
        'The body must be JSON: { workspace_id, query, limit?, document_ids?, collection_ids?, types?, rerank? }',
    }
  }
  const parsed = inputSchema.safeParse(body)
  if (!parsed.success) return { problem: parsed.error.issues.map((i) => i.message).join('; ') }
  return { input: parsed.data }
}
