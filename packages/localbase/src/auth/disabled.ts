import type { Context, Hono } from 'hono'
import type { ServiceContext } from '../context.ts'
import { AuthError, forbidden, validation } from './errors.ts'
import { readBody, str } from './http.ts'
import { isUuid, requireUser } from './guard.ts'

// Features localbase does not provide (SAML SSO, linking OAuth identities, MFA, Web3), answered as GoTrue
// answers a project that has them switched off (middleware.go requireSAMLEnabled and
// requireManualLinkingEnabled, mfa.go EnrollFactor, web3.go), so clients get the documented
// error rather than a bare 404.
const samlDisabled = () => new AuthError(404, 'saml_provider_disabled', 'SAML 2.0 is disabled')
const linkingDisabled = () =>
  new AuthError(404, 'manual_linking_disabled', 'Manual linking is disabled')

/** POST /token?grant_type=web3 with neither Solana nor Ethereum enabled. */
export const web3Disabled = () =>
  new AuthError(422, 'web3_provider_disabled', 'Web3 provider is disabled')

const enrollDisabled: Record<string, AuthError> = {
  phone: new AuthError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone'),
  totp: new AuthError(422, 'mfa_totp_enroll_not_enabled', 'MFA enroll is disabled for TOTP'),
  webauthn: new AuthError(
    422,
    'mfa_webauthn_enroll_not_enabled',
    'MFA enroll is disabled for WebAuthn',
  ),
}

/** GoTrue's requireAuthentication then requireNotAnonymous, in front of every /factors route. */
async function requireMember(ctx: ServiceContext, c: Context): Promise<void> {
  const { user } = await requireUser(ctx, c)
  if (user.user.is_anonymous) {
    throw forbidden('no_authorization', 'Anonymous user not allowed to perform these actions')
  }
}

export function disabledRoutes(app: Hono, ctx: ServiceContext): void {
  const sso = () => {
    throw samlDisabled()
  }
  app.post('/sso', sso)
  app.get('/sso/saml/metadata', sso)
  app.post('/sso/saml/acs', sso)

  // Behind requireAuthentication in GoTrue: no session is a 401 before the linking check.
  const identities = async (c: Context) => {
    await requireUser(ctx, c)
    throw linkingDisabled()
  }
  app.get('/user/identities/authorize', identities)
  app.delete('/user/identities/:id', identities)

  // No factor can ever be enrolled, so every factor id is unknown.
  app.post('/factors', async (c) => {
    await requireMember(ctx, c)
    const type = str(await readBody(c), 'factor_type') ?? ''
    throw enrollDisabled[type] ?? validation('factor_type needs to be totp, phone, or webauthn')
  })
  const factor = async (c: Context) => {
    await requireMember(ctx, c)
    if (!isUuid(c.req.param('id'))) {
      throw new AuthError(404, 'validation_failed', 'factor_id must be an UUID')
    }
    throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found')
  }
  app.post('/factors/:id/verify', factor)
  app.post('/factors/:id/challenge', factor)
  app.delete('/factors/:id', factor)
}
