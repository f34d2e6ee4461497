// zod/mini: the same validation with a fraction of the weight in the initial bundle.
import * as z from 'zod/mini'

const LOCAL_PUBLISHABLE_KEY = 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH'

const schema = z.object({
  SUPABASE_URL: z.url({ protocol: /^https?$/ }),
  SUPABASE_PUBLISHABLE_KEY: z.string().check(
    z.minLength(1),
    z.refine((key: string) => !key.startsWith('sb_secret_'), {
      message: 'must be a publishable key, never a secret key',
    }),
  ),
})

export type Env = z.infer<typeof schema>

function readEnv(): Env {
  const parsed = schema.safeParse({
    // localbase serves the app at `/`, so by default the API is the page's own origin.
    SUPABASE_URL: import.meta.env.VITE_SUPABASE_URL || window.location.origin,
    SUPABASE_PUBLISHABLE_KEY:
      import.meta.env.VITE_SUPABASE_PUBLISHABLE_KEY || LOCAL_PUBLISHABLE_KEY,
  })
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `VITE_${issue.path.join('.')}: ${issue.message}`,
    )
    throw new Error(`Invalid environment:\n${problems.join('\n')}`)
  }
  return parsed.data
}

export const env = readEnv()

/** True when the API is a local stack, whose mail lands in the dev mailbox. */
export const isLocalStack = /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/.test(
  env.SUPABASE_URL.replace(/\/$/, ''),
)

export const mailboxUrl = `${env.SUPABASE_URL.replace(/\/$/, '')}/auth/v1/mailbox`
