import { validation } from './errors.ts'
import { type Body, bool, normaliseEmail, obj, str } from './http.ts'
import { checkStrength, hashPassword } from './passwords.ts'

// The admin user attributes (AdminUserParams in internal/api/admin.go), validated.

const unitSeconds: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 }

/** A Go duration such as "24h" or "1h30m" in seconds; "none" lifts a ban (null). */
function banSeconds(value: string): number | null {
  if (value === 'none') return null
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)]
  if (!parts.length || parts.map((p) => p[0]).join('') !== value) {
    throw validation(`invalid format for ban duration: time: invalid duration "${value}"`)
  }
  return parts.reduce((sum, p) => sum + Number(p[1]) * unitSeconds[p[2]!]!, 0)
}

export type AdminAttributes = {
  email: string | null
  passwordHash: string | null
  emailConfirm: boolean
  userMetadata: Record<string, unknown> | null
  appMetadata: Record<string, unknown> | null
  role: string | null
  /** undefined: unchanged; null: not banned; a number: banned for that many seconds. */
  ban: number | null | undefined
}

export async function adminAttributes(body: Body, minLength: number): Promise<AdminAttributes> {
  const email = str(body, 'email')
  const password = str(body, 'password')
  if (password !== undefined) checkStrength(password, minLength)
  const ban = str(body, 'ban_duration')
  return {
    email: email === undefined ? null : normaliseEmail(email),
    passwordHash: password === undefined ? null : await hashPassword(password),
    emailConfirm: bool(body, 'email_confirm') ?? false,
    userMetadata: obj(body, 'user_metadata') ?? null,
    appMetadata: obj(body, 'app_metadata') ?? null,
    role: str(body, 'role') ?? null,
    ban: ban === undefined ? undefined : banSeconds(ban),
  }
}
