import { badRequest, validation } from './errors.ts'
import { type Body, str } from './http.ts'

// grant_type=id_token: localbase enables no OAuth/OIDC provider, so every ID token sign-in ends
// where GoTrue's IdTokenGrant ends for a disabled provider (token_oidc.go getProvider), with the
// same checks and messages on the way there. The token itself is never trusted or verified.
const issuers: Record<string, string> = {
  google: 'https://accounts.google.com',
  facebook: 'https://www.facebook.com',
  kakao: 'https://kauth.kakao.com',
  snapchat: 'https://accounts.snapchat.com/accounts/oauth2/token',
  keycloak: '',
}

/** The `iss` claim, read without verification, as GoTrue's Apple/Azure issuer detection does. */
function unverifiedIssuer(token: string): string | null {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'))
    return typeof claims?.iss === 'string' ? claims.iss : null
  } catch {
    return null
  }
}

const detected: Record<string, { label: string; matches: (issuer: string) => boolean }> = {
  apple: {
    label: 'Apple',
    matches: (iss) => ['https://appleid.apple.com', 'https://account.apple.com'].includes(iss),
  },
  azure: {
    label: 'Azure',
    matches: (iss) =>
      iss.startsWith('https://login.microsoftonline.com/') ||
      iss.startsWith('https://sts.windows.net/'),
  },
}

/** Always throws: the error GoTrue gives for this request with no provider enabled. */
export function idTokenGrant(body: Body): never {
  const idToken = str(body, 'id_token')
  const provider = str(body, 'provider') ?? ''
  if (!idToken) throw badRequest('invalid_request', 'id_token required')
  if (!provider && (!str(body, 'client_id') || !str(body, 'issuer'))) {
    throw badRequest('invalid_request', 'provider or client_id and issuer required')
  }
  let issuer = issuers[provider]
  const detect = detected[provider]
  if (detect) {
    const found = unverifiedIssuer(idToken)
    if (found === null) {
      throw validation(`Unable to detect issuer in ID token for ${detect.label} provider`)
    }
    if (!detect.matches(found)) {
      throw validation(`Detected ID token issuer is not an ${detect.label} ID token issuer`)
    }
    issuer = found
  }
  if (issuer === undefined) throw validation(`Custom OIDC provider "${provider}" not allowed`)
  throw badRequest('provider_disabled', `Provider (issuer "${issuer}") is not enabled`)
}
