import type { Context, Hono } from 'hono'
import type { ServiceContext } from '../context.ts'
import { AuthError } from './errors.ts'
import { requireUser } from './guard.ts'

// Features localbase does not provide (SAML SSO, linking OAuth identities, Web3), answered as GoTrue
// answers a project that has them switched off (middleware.go requireSAMLEnabled and
// requireManualLinkingEnabled, web3.go), so clients get the documented
// error rather than a bare 404.
const samlDisabled = () => new AuthError(404, 'saml_provider_disabled', 'SAML 2.0 is disabled')
const linkingDisabled = () =>
  new AuthError(404, 'manual_linking_disabled', 'Manual linking is disabled')

/** POST /token?grant_type=web3 with neither Solana nor Ethereum enabled. */
export const web3Disabled = () =>
  new AuthError(422, 'web3_provider_disabled', 'Web3 provider is disabled')

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
}
