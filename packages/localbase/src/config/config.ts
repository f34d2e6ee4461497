import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parse as parseToml } from 'smol-toml'
import { TrustedProxies } from '../gateway/ip-address.ts'
import { type Keys, keysFromEnv } from './keys.ts'
import { type MailTemplates, mailTemplates } from '../auth/templates.ts'
import { type SigningKey, loadSigningKeys } from './signing-keys.ts'
import { type SmtpConfig, smtpConfig } from './smtp.ts'

export type BucketConfig = {
  public: boolean
  fileSizeLimit: number | null
  allowedMimeTypes: string[] | null
}

export type LocalbaseConfig = {
  workdir: string
  /** The project's `supabase/` folder (config.toml, migrations, seed.sql, functions). */
  supabaseDir: string
  host: string
  port: number
  dataDir: string
  /** A Postgres server to use instead of PGlite in the data dir (DATABASE_URL, --db-url). */
  dbUrl: string | null
  dbPort: number | null
  serveDir: string | null
  keys: Keys
  /** Proxies whose `X-Forwarded-For` is believed (TRUSTED_PROXIES); none by default. */
  trustedProxies: TrustedProxies
  /** A processing document whose row is untouched this long is reaped as interrupted. */
  interruptedAfterSeconds: number
  api: { schemas: string[]; extraSearchPath: string[]; maxRows: number | null }
  auth: {
    siteUrl: string
    additionalRedirectUrls: string[]
    jwtExpiry: number
    enableSignup: boolean
    enableConfirmations: boolean
    /** An email change is confirmed at the old address as well as the new one. */
    doubleConfirmChanges: boolean
    /** `[auth.email] secure_password_change`: a password change asks for a mailed nonce. */
    securePasswordChange: boolean
    /** `[auth.email] otp_expiry`: seconds a mailed code stays good. */
    otpExpiry: number
    enableAnonymousSignIns: boolean
    minimumPasswordLength: number
    refreshTokenRotation: boolean
    refreshTokenReuseInterval: number
    /** Where auth mail goes; null means the dev mailbox (on loopback) or nowhere. */
    smtp: SmtpConfig | null
    /** `[auth.email.template.*]`: subjects and bodies that replace the built-in mail. */
    templates: MailTemplates
    rateLimit: RateLimits
    signInGuard: SignInGuard
    mfa: MfaConfig
    /** `[auth] signing_keys_path`: the first signs access tokens; none means HS256 with the secret. */
    signingKeys: SigningKey[]
    /** `[auth.oauth_server] enabled`: the admin API for OAuth 2.1 clients is served. */
    oauthServerEnabled: boolean
  }
  storage: {
    fileSizeLimit: number
    buckets: Record<string, BucketConfig>
    /**
     * `TUS_URL_EXPIRY_MS` (Supabase Storage's own setting): how long after its creation an
     * unfinished resumable upload may be resumed, and then is deleted. Hosted: 24 hours.
     */
    tusUrlExpiryMs: number
  }
  functions: Record<string, { verifyJwt: boolean }>
  /** Seed files, as `[db.seed] sql_paths` globs relative to supabase/ (default ./seed.sql). */
  seedPaths: string[]
  /** Extra environment for Edge Functions (supabase/functions/.env is read by the functions service). */
  env: NodeJS.ProcessEnv
}

/**
 * `[auth.rate_limit]` as the Supabase CLI passes it to GoTrue: requests per client address in
 * five minutes (anonymous sign-ins: per hour), and mails per hour for the whole project.
 */
export type RateLimits = {
  /** null while mail goes to the dev mailbox: the CLI lifts the limit without SMTP. */
  emailSent: number | null
  signInSignUps: number
  tokenRefresh: number
  tokenVerifications: number
  anonymousUsers: number
}

/** `[auth.mfa]` as the Supabase CLI reads it; TOTP is off unless turned on, as in the CLI. */
export type MfaConfig = {
  maxEnrolledFactors: number
  totpEnrollEnabled: boolean
  totpVerifyEnabled: boolean
  /** `[auth.mfa.web_authn] enroll_enabled`: enrolment only, localbase runs no ceremony. */
  webauthnEnrollEnabled: boolean
}

/** How password guesses against one account are slowed (auth/password-guard.ts). */
export type SignInGuard = {
  /** Failed passwords an account takes before further attempts wait. */
  freeFailures: number
  /** The first wait; it doubles with each further failure, up to maxDelayMs. */
  delayMs: number
  maxDelayMs: number
}

export type ConfigOptions = {
  workdir?: string
  host?: string
  port?: number
  dataDir?: string
  dbUrl?: string | null
  dbPort?: number | null
  serveDir?: string | null
  env?: NodeJS.ProcessEnv
}

type Toml = Record<string, unknown>

function section(toml: Toml, ...path: string[]): Toml {
  let node: unknown = toml
  for (const key of path) node = (node as Toml | undefined)?.[key]
  return node && typeof node === 'object' ? (node as Toml) : {}
}

/** Parses Supabase size strings such as "50MiB", "1GB" or plain byte counts. */
export function parseSize(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null
  if (typeof value === 'number') return value
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?i?b)?\s*$/i.exec(String(value))
  if (!match) throw new Error(`invalid size "${String(value)}"`)
  const unit = (match[2] ?? 'b').toLowerCase()
  const power = { b: 0, kb: 1, kib: 1, mb: 2, mib: 2, gb: 3, gib: 3, tb: 4, tib: 4 }[unit] ?? 0
  const base = unit.includes('i') || unit === 'b' ? 1024 : 1000
  return Math.round(Number(match[1]) * base ** power)
}

/** A non-negative whole number from config.toml or the environment, or the default. */
function count(name: string, value: unknown, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const number = Number(value)
  if (!Number.isInteger(number) || number < 0) {
    throw new Error(`${name}: expected a whole number of at least 0, got "${String(value)}"`)
  }
  return number
}

export function loadConfig(options: ConfigOptions = {}): LocalbaseConfig {
  const env = options.env ?? process.env
  const workdir = resolve(options.workdir ?? '.')
  const supabaseDir = join(workdir, 'supabase')
  const tomlPath = join(supabaseDir, 'config.toml')
  const toml: Toml = existsSync(tomlPath) ? parseToml(readFileSync(tomlPath, 'utf8')) : {}

  const api = section(toml, 'api')
  const auth = section(toml, 'auth')
  const email = section(toml, 'auth', 'email')
  const rateLimit = section(toml, 'auth', 'rate_limit')
  // AUTH_RATE_LIMIT_<KEY> overrides `[auth.rate_limit] <key>` without editing the project.
  const limit = (key: string, fallback: number) => {
    const variable = `AUTH_RATE_LIMIT_${key.toUpperCase()}`
    return env[variable]
      ? count(variable, env[variable], fallback)
      : count(`[auth.rate_limit] ${key}`, rateLimit[key], fallback)
  }
  const mailServer = smtpConfig(section(toml, 'auth', 'email', 'smtp'), env)
  const storage = section(toml, 'storage')
  const port = options.port ?? Number(env.PORT || 54321)
  const host = options.host ?? (env.HOST || '127.0.0.1')

  const buckets: Record<string, BucketConfig> = {}
  for (const [name, raw] of Object.entries(section(toml, 'storage', 'buckets'))) {
    const bucket = raw as Toml
    buckets[name] = {
      public: bucket.public === true,
      fileSizeLimit: parseSize(bucket.file_size_limit),
      allowedMimeTypes: Array.isArray(bucket.allowed_mime_types)
        ? (bucket.allowed_mime_types as string[])
        : null,
    }
  }
  const functions: Record<string, { verifyJwt: boolean }> = {}
  for (const [name, raw] of Object.entries(section(toml, 'functions'))) {
    functions[name] = { verifyJwt: (raw as Toml).verify_jwt !== false }
  }

  return {
    workdir,
    supabaseDir,
    host,
    port,
    dataDir: resolve(workdir, options.dataDir ?? (env.DATA_DIR || '.sourcebook')),
    dbUrl: options.dbUrl || env.DATABASE_URL || null,
    dbPort: options.dbPort ?? null,
    serveDir: options.serveDir ? resolve(workdir, options.serveDir) : null,
    keys: keysFromEnv(env),
    trustedProxies: new TrustedProxies(env.TRUSTED_PROXIES ?? ''),
    // Eight missed 15 s import heartbeats; the reaper's own default (reap-interrupted.ts).
    interruptedAfterSeconds: count('INTERRUPTED_AFTER_SECONDS', env.INTERRUPTED_AFTER_SECONDS, 120),
    api: {
      schemas: (api.schemas as string[] | undefined) ?? ['public', 'graphql_public'],
      extraSearchPath: (api.extra_search_path as string[] | undefined) ?? ['public', 'extensions'],
      maxRows: typeof api.max_rows === 'number' ? api.max_rows : 1000,
    },
    auth: {
      // The Supabase CLI's default, when a project's config.toml does not set one.
      siteUrl: (auth.site_url as string | undefined) ?? 'http://127.0.0.1:3000',
      additionalRedirectUrls: (auth.additional_redirect_urls as string[] | undefined) ?? [],
      jwtExpiry: (auth.jwt_expiry as number | undefined) ?? 3600,
      enableSignup: auth.enable_signup !== false,
      enableConfirmations: email.enable_confirmations === true,
      // On unless turned off, as in the CLI's config template.
      doubleConfirmChanges: email.double_confirm_changes !== false,
      securePasswordChange: email.secure_password_change === true,
      otpExpiry: count('[auth.email] otp_expiry', email.otp_expiry, 3600),
      enableAnonymousSignIns: auth.enable_anonymous_sign_ins === true,
      minimumPasswordLength: (auth.minimum_password_length as number | undefined) ?? 6,
      refreshTokenRotation: auth.enable_refresh_token_rotation !== false,
      refreshTokenReuseInterval: (auth.refresh_token_reuse_interval as number | undefined) ?? 10,
      smtp: mailServer,
      templates: mailTemplates(section(toml, 'auth', 'email', 'template'), workdir),
      // The CLI's defaults (pkg/config/templates/config.toml).
      rateLimit: {
        emailSent: mailServer !== null ? limit('email_sent', 2) : null,
        signInSignUps: limit('sign_in_sign_ups', 30),
        tokenRefresh: limit('token_refresh', 150),
        tokenVerifications: limit('token_verifications', 30),
        anonymousUsers: limit('anonymous_users', 30),
      },
      signInGuard: {
        freeFailures: count('SIGN_IN_FREE_FAILURES', env.SIGN_IN_FREE_FAILURES, 5),
        delayMs: count('SIGN_IN_DELAY_MS', env.SIGN_IN_DELAY_MS, 1000),
        maxDelayMs: count('SIGN_IN_MAX_DELAY_MS', env.SIGN_IN_MAX_DELAY_MS, 15_000),
      },
      signingKeys: loadSigningKeys(
        typeof auth.signing_keys_path === 'string' && auth.signing_keys_path
          ? resolve(supabaseDir, auth.signing_keys_path)
          : null,
      ),
      oauthServerEnabled: section(toml, 'auth', 'oauth_server').enabled === true,
      mfa: {
        maxEnrolledFactors: count(
          '[auth.mfa] max_enrolled_factors',
          section(toml, 'auth', 'mfa').max_enrolled_factors,
          10,
        ),
        totpEnrollEnabled: section(toml, 'auth', 'mfa', 'totp').enroll_enabled === true,
        totpVerifyEnabled: section(toml, 'auth', 'mfa', 'totp').verify_enabled === true,
        webauthnEnrollEnabled: section(toml, 'auth', 'mfa', 'web_authn').enroll_enabled === true,
      },
    },
    storage: {
      fileSizeLimit: parseSize(storage.file_size_limit) ?? 50 * 1024 * 1024,
      buckets,
      tusUrlExpiryMs: count('TUS_URL_EXPIRY_MS', env.TUS_URL_EXPIRY_MS, 24 * 3600_000),
    },
    functions,
    seedPaths: (section(toml, 'db', 'seed').sql_paths as string[] | undefined) ?? ['./seed.sql'],
    env,
  }
}
