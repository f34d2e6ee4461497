import type { Hono, MiddlewareHandler } from 'hono'
import type { ServiceContext } from '../context.ts'
import { clientAddress } from '../gateway/client-address.ts'
import { readBody } from './http.ts'
import { PasswordGuard } from './password-guard.ts'
import { type AddressLimit, type AddressLimits, addressLimits, EmailLimit } from './rate-limit.ts'

export type AuthLimits = {
  address: AddressLimits
  email: EmailLimit
  passwords: PasswordGuard
}

// One set per running localbase. Mail is sent from several routes through mail.ts, which is
// handed only the context, so the limits hang off it rather than off one route module.
const byContext = new WeakMap<ServiceContext, AuthLimits>()

export function authLimits(ctx: ServiceContext): AuthLimits {
  let limits = byContext.get(ctx)
  if (!limits) {
    const { rateLimit, enableConfirmations, signInGuard } = ctx.config.auth
    // GoTrue sends nothing when email_sent is 0, and otherwise counts mails only while
    // confirmations are on (mail.go sendEmail: "rate limits should still be applied to
    // autoconfirm" is a TODO there).
    const emailPerHour =
      rateLimit.emailSent === 0 || enableConfirmations ? rateLimit.emailSent : null
    limits = {
      address: addressLimits(rateLimit),
      email: new EmailLimit(emailPerHour),
      passwords: new PasswordGuard(signInGuard),
    }
    byContext.set(ctx, limits)
  }
  return limits
}

const spend =
  (limit: AddressLimit): MiddlewareHandler =>
  async (c, next) => {
    limit.take(clientAddress(c))
    await next()
  }

// The grants GoTrue's /token counts against token_refresh (token.go); web3 is switched off.
const tokenGrants = new Set(['password', 'refresh_token', 'id_token', 'pkce'])

/**
 * GoTrue's per-address limits (api.go), registered ahead of the routes they guard: one bucket
 * per route, as apilimiter keeps one limiter per route.
 */
export function limitRoutes(app: Hono, ctx: ServiceContext): void {
  const { address } = authLimits(ctx)
  app.post('/token', async (c, next) => {
    if (tokenGrants.has(c.req.query('grant_type') ?? '')) address.token.take(clientAddress(c))
    await next()
  })
  app.on(['GET', 'POST'], '/verify', spend(address.verify))
  app.post('/otp', spend(address.otp))
  app.post('/recover', spend(address.recover))
  app.post('/resend', spend(address.resend))
  app.post('/factors/:id/challenge', spend(address.factorChallenge))
  app.post('/factors/:id/verify', spend(address.factorVerify))
  // After authentication in GoTrue: only requests that carry a token are counted.
  app.put('/user', async (c, next) => {
    if (c.req.header('authorization')) address.user.take(clientAddress(c))
    await next()
  })
  app.post('/signup', async (c, next) => {
    const body = await readBody(c)
    const anonymous = !body.email && !body.phone
    // A refused anonymous sign-in (switched off) is answered by the route, uncounted.
    if (!anonymous) address.signup.take(clientAddress(c))
    else if (ctx.config.auth.enableAnonymousSignIns) address.anonymous.take(clientAddress(c))
    await next()
  })
}
