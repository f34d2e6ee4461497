import { z } from 'npm:zod@4.6.7'

const inputSchema = z.object({
  invitation_id: z.uuid('invitation_id must be a UUID'),
  // The app's origin, where the mailed link lands: scheme, host and port, nothing more.
  redirect_to: z
    .url({ protocol: /^https?$/, error: 'redirect_to must be an http(s) URL' })
    .refine(
      (value) => new URL(value).origin === value.replace(/\/$/, ''),
      'redirect_to must be an origin, without a path',
    ),
})

export type Input = z.infer<typeof inputSchema>

/** The parsed body, or the message to answer 400 with. */
export async function readInput(req: Request): Promise<{ input: Input } | { problem: string }> {
  let body: unknown
  try {
    body = await req.json()
  } catch {
    return { problem: 'The body must be JSON: { invitation_id, redirect_to }' }
  }
  const parsed = inputSchema.safeParse(body)
  if (!parsed.success) return { problem: parsed.error.issues.map((i) => i.message).join('; ') }
  return { input: parsed.data }
}
