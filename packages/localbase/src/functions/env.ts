import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import type { ServiceContext } from '../context.ts'

/**
 * A function's environment: localbase's own, then supabase/functions/.env, then the
 * platform's default secrets, which (as in the Supabase CLI) a .env cannot override.
 * Read at each process start, so editing .env takes effect on the next restart.
 */
export function functionEnv(ctx: ServiceContext, denoDir: string): NodeJS.ProcessEnv {
  const { config } = ctx
  const dotenvPath = join(config.supabaseDir, 'functions', '.env')
  const dotenv = existsSync(dotenvPath) ? parseEnv(readFileSync(dotenvPath, 'utf8')) : {}
  const platform: NodeJS.ProcessEnv = {
    SUPABASE_URL: ctx.url,
    SUPABASE_ANON_KEY: config.keys.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: config.keys.serviceRoleKey,
    SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: config.keys.publishableKey }),
    SUPABASE_SECRET_KEYS: JSON.stringify({ default: config.keys.secretKey }),
  }
  if (config.dbPort) {
    platform.SUPABASE_DB_URL = `postgresql://postgres:postgres@127.0.0.1:${config.dbPort}/postgres`
  }
  const denoSettings = { DENO_DIR: config.env.DENO_DIR || denoDir, NO_COLOR: '1' }
  return { ...config.env, ...dotenv, ...platform, ...denoSettings }
}
