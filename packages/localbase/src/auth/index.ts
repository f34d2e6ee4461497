import { readFileSync } from 'node:fs'
import { Hono } from 'hono'
import type { Service, ServiceContext } from '../context.ts'
import { adminRoutes } from './admin.ts'
import { disabledRoutes } from './disabled.ts'
import { API_VERSION, AuthError, renderError } from './errors.ts'
import { adminFactorRoutes } from './admin-factors.ts'
import { adminOAuthClientRoutes } from './admin-oauth-clients.ts'
import { factorRoutes } from './factors.ts'
import { tokenRoutes } from './grants.ts'
import { limitRoutes } from './limits.ts'
import { mailboxMailer, mailboxOpen, mailboxRoutes } from './mailbox.ts'
import { type Mailer, type MailingContext, dropMail } from './mailer.ts'
import { metaRoutes } from './meta.ts'
import { otpRoutes } from './otp.ts'
import { reauthenticateRoutes } from './reauthenticate.ts'
import { signupRoutes } from './signup.ts'
import { smtpMailer } from './smtp.ts'
import { userRoutes } from './user.ts'
import { verifyRoutes } from './verify.ts'

const schemaSql = readFileSync(new URL('./schema.sql', import.meta.url), 'utf8')

/** SMTP when configured, else the dev mailbox on loopback, else (as GoTrue without SMTP) nowhere. */
function chooseMailer(ctx: ServiceContext): Mailer {
  const { smtp } = ctx.config.auth
  if (smtp) return smtpMailer(smtp, ctx.url)
  if (mailboxOpen(ctx.config)) return mailboxMailer(ctx.db)
  console.warn(
    `[localbase auth] listening on ${ctx.config.host} with no SMTP configured: auth mail is not sent (set [auth.email.smtp] or SMTP_HOST)`,
  )
  return dropMail
}

/** A GoTrue-compatible /auth/v1 (docs §3) on localbase's own auth schema. */
export async function createAuthService(service: ServiceContext): Promise<Service> {
  const ctx: MailingContext = { ...service, mailer: chooseMailer(service) }
  await ctx.db.asService((tx) => tx.exec(schemaSql))
  const app = new Hono()
  app.use('*', async (c, next) => {
    await next()
    c.res.headers.set('x-supabase-api-version', API_VERSION)
  })
  // Limits first: each one runs ahead of the route it guards.
  for (const routes of [
    limitRoutes,
    metaRoutes,
    signupRoutes,
    tokenRoutes,
    userRoutes,
    reauthenticateRoutes,
    verifyRoutes,
    otpRoutes,
    factorRoutes,
    adminRoutes,
    adminFactorRoutes,
    adminOAuthClientRoutes,
    mailboxRoutes,
    disabledRoutes,
  ]) {
    routes(app, ctx)
  }
  app.notFound((c) => renderError(c, new AuthError(404, 'not_found', 'Not Found')))
  app.onError((error, c) => {
    if (error instanceof AuthError) return renderError(c, error)
    console.error(`[localbase auth] ${c.req.method} ${c.req.path}:`, error)
    return renderError(c, new AuthError(500, 'unexpected_failure', 'Unexpected failure'))
  })
  return { name: 'auth', prefix: '/auth/v1', app }
}
