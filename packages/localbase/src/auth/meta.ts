import type { Hono } from 'hono'
import type { ServiceContext } from '../context.ts'

// GET /settings (internal/api/settings.go), /health and the JWKS.

const providers = [
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'snapchat',
  'figma',
  'fly',
  'github',
  'gitlab',
  'google',
  'keycloak',
  'kakao',
  'linkedin',
  'linkedin_oidc',
  'notion',
  'spotify',
  'slack',
  'slack_oidc',
  'workos',
  'twitch',
  'twitter',
  'zoom',
]

export function metaRoutes(app: Hono, ctx: ServiceContext): void {
  const auth = ctx.config.auth
  app.get('/settings', (c) =>
    c.json({
      external: {
        anonymous_users: auth.enableAnonymousSignIns,
        ...Object.fromEntries(providers.map((p) => [p, false])),
        email: true,
        phone: false,
      },
      disable_signup: !auth.enableSignup,
      mailer_autoconfirm: !auth.enableConfirmations,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
      saml_private_key_next_configured: false,
      passkeys_enabled: false,
    }),
  )
  app.get('/health', (c) =>
    c.json({
      version: 'localbase',
      name: 'GoTrue',
      description: 'GoTrue is a user registration and authentication API',
    }),
  )
  // The public halves of the signing keys; empty with the legacy secret alone (never published).
  const jwks = { keys: auth.signingKeys.map((key) => key.publicJwk) }
  app.get('/.well-known/jwks.json', (c) =>
    c.json(jwks, 200, { 'cache-control': 'public, max-age=600' }),
  )
}
