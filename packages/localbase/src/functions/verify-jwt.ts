import type { CallerResolver } from '../gateway/caller.ts'
import { unauthorized } from './errors.ts'

function decodesAsJwt(token: string): boolean {
  const parts = token.split('.')
  if (parts.length !== 3) return false
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as unknown
    return typeof header === 'object' && header !== null && 'alg' in header
  } catch {
    return false
  }
}

/**
 * The platform's verify_jwt check: Authorization must carry a JWT signed with the project
 * secret. The new `sb_publishable_…`/`sb_secret_…` keys are not JWTs and fail it, as hosted.
 * Returns the 401 response, or null when the request may pass.
 */
export async function verifyJwt(
  callers: CallerResolver,
  authorization: string | undefined,
): Promise<Response | null> {
  if (!authorization) return unauthorized('Missing authorization header')
  const token = /^bearer\s+(\S+)\s*$/i.exec(authorization)?.[1]
  if (!token || !decodesAsJwt(token)) {
    return unauthorized('Invalid Token or Protected Header formatting')
  }
  const verified = await callers.verify(token)
  return verified.ok ? null : unauthorized('Invalid JWT')
}
