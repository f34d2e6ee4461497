import type { Context } from 'hono'
import { AuthError, validation } from './errors.ts'

export type Body = Record<string, unknown>

/** The JSON body as an object; GoTrue answers 400 bad_json for anything else. */
export async function readBody(c: Context): Promise<Body> {
  const text = await c.req.text()
  if (!text.trim()) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new AuthError(
      400,
      'bad_json',
      `Could not parse request body as JSON: ${(error as Error).message}`,
    )
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new AuthError(400, 'bad_json', 'Could not parse request body as JSON: expected an object')
  }
  return parsed as Body
}

/** A string field, or undefined when absent; a wrong type is a validation error. */
export function str(body: Body, key: string): string | undefined {
  const value = body[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw validation(`${key} must be a string`)
  return value
}

export function bool(body: Body, key: string): boolean | undefined {
  const value = body[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'boolean') throw validation(`${key} must be a boolean`)
  return value
}

/** A JSON object field (user or app metadata). */
export function obj(body: Body, key: string): Record<string, unknown> | undefined {
  const value = body[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'object' || Array.isArray(value))
    throw validation(`${key} must be an object`)
  return value as Record<string, unknown>
}

// GoTrue checks the format with checkmail: dot-separated atoms of RFC 5322 atext (or one quoted
// string) before the @, then host labels, the last of which starts and ends with a letter.
// Non-ASCII letters count as letters. So `xx:;x@x.x` and `a@b.1` are refused, `a+b@c.io` passes.
const intl = '\u00a0-\ud7ff\uf900-\ufdcf\ufdf0-\uffef'
const atom = `[a-zA-Z0-9!#$%&'*+\\-/=?^_\`{|}~${intl}]+`
const quoted = '"(?:[^"\\\\\\r\\n]|\\\\.)*"'
const label = `[a-zA-Z0-9${intl}](?:[a-zA-Z0-9.~\\-${intl}]*[a-zA-Z0-9${intl}])?`
const topLabel = `[a-zA-Z${intl}](?:[a-zA-Z0-9.~\\-${intl}]*[a-zA-Z${intl}])?`
const emailPattern = new RegExp(
  `^(?:${atom}(?:\\.${atom})*|${quoted})@(?:${label}\\.)+${topLabel}\\.?$`,
)

/** Lower-cased and checked as GoTrue's validateEmail does. */
export function normaliseEmail(email: string | undefined): string {
  const trimmed = email?.trim() ?? ''
  if (!trimmed) throw validation('An email address is required')
  if (trimmed.length > 255) throw validation('An email address is too long')
  if (!emailPattern.test(trimmed))
    throw validation('Unable to validate email address: invalid format')
  return trimmed.toLowerCase()
}
