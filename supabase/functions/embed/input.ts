import { z } from 'npm:zod@4.6.7'

const inputSchema = z
  .strictObject(
    {
      document_id: z.uuid('document_id must be a UUID').optional(),
      workspace_id: z.uuid('workspace_id must be a UUID').optional(),
    },
    'The body must be { document_id } or { workspace_id }',
  )
  .refine((input) => (input.document_id === undefined) !== (input.workspace_id === undefined), {
    message: 'The body must be { document_id } or { workspace_id }',
  })

export type Input = { document_id?: string; workspace_id?: string }

/** The parsed body, or the message to answer 400 with. */
export async function readInput(req: Request): Promise<{ input: Input } | { problem: string }> {
  let body: unknown
  try {
    body = await req.json()
  } catch {
    return { problem: 'The body must be JSON: { document_id } or { workspace_id }' }
  }
  const parsed = inputSchema.safeParse(body)
  if (!parsed.success) return { problem: parsed.error.issues[0]!.message }
  return { input: parsed.data }
}
