// The mail server, as the Supabase CLI reads `[auth.email.smtp]` (enabled, host, port, user,
// pass, admin_email, sender_name), where any string may be `env(NAME)`. The environment
// variables below override the file field by field, and SMTP_HOST alone turns SMTP on.

export type SmtpConfig = {
  host: string
  port: number
  user: string
  pass: string
  /** The From address of every auth mail. */
  adminEmail: string
  senderName: string
}

type Toml = Record<string, unknown>

const variables = {
  host: 'SMTP_HOST',
  port: 'SMTP_PORT',
  user: 'SMTP_USER',
  pass: 'SMTP_PASS',
  admin_email: 'SMTP_ADMIN_EMAIL',
  sender_name: 'SMTP_SENDER_NAME',
} as const

const envReference = /^env\((.*)\)$/
const address = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/

/** The SMTP settings, or null when mail is not sent over SMTP; throws on unusable ones. */
export function smtpConfig(section: Toml, env: NodeJS.ProcessEnv): SmtpConfig | null {
  if (section.enabled !== true && !env.SMTP_HOST) return null
  const field = (key: keyof typeof variables): string => {
    const override = env[variables[key]]
    if (override) return override
    const raw = section[key]
    if (raw === undefined || raw === null) return ''
    const reference = envReference.exec(String(raw))
    if (!reference) return String(raw)
    // The CLI keeps an unresolved reference as text; sending with it could only fail later.
    const resolved = env[reference[1]!]
    if (!resolved) {
      throw new Error(`[auth.email.smtp] ${key} is ${String(raw)}, but ${reference[1]} is not set`)
    }
    return resolved
  }

  const host = field('host')
  if (!host)
    throw new Error('SMTP is enabled but has no host: set [auth.email.smtp] host or SMTP_HOST')
  const portText = field('port') || '587'
  const port = Number(portText)
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`invalid SMTP port "${portText}"`)
  }
  const adminEmail = field('admin_email')
  if (!address.test(adminEmail)) {
    throw new Error(
      `SMTP needs the address mail is sent from: set [auth.email.smtp] admin_email or SMTP_ADMIN_EMAIL (got "${adminEmail}")`,
    )
  }
  return {
    host,
    port,
    user: field('user'),
    pass: field('pass'),
    adminEmail,
    senderName: field('sender_name'),
  }
}
