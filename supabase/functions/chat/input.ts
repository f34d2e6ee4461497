import { z } from 'npm:zod@4.6.7'

const inputSchema = z
  .object({
    conversation_id: z.uuid('conversation_id must be a UUID'),
    content: z
      .string('content must be a string')
      .trim()
      .min(1, 'content must not be empty')
      .max(4000, 'content must be at most 4000 characters')
      .optional(),
    // Regenerating answers the stored question again, so content is not needed then.
    regenerate: z.uuid('regenerate must be the id of an answer').optional(),
  })
  .refine((input) => input.content !== undefined || input.regenerate !== undefined, {
    message: 'content is required: the question to ask',
  })

export type Input = z.infer<typeof inputSchema>

/** The parsed body, or the message to answer 400 with. */
export async function readInput(req: Request): Promise<{ input: Input } | { problem: string }> {
  let body: unknown
  try {
    body = await req.json()
  } catch {
    return { problem: 'The body must be JSON: { conversation_id, content, regenerate? }' }
  }
  const parsed = inputSchema.safeParse(body)
  if (!parsed.success) return { problem: parsed.error.issues.map((i) => i.message).join('; ') }
  return { input: parsed.data }
}
