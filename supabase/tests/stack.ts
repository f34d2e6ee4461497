import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { SignJWT } from 'jose'
import {
  DEFAULT_ANON_KEY,
  DEFAULT_JWT_SECRET,
  DEFAULT_SERVICE_ROLE_KEY,
  type Localbase,
  relaxedAuthLimits,
  startLocalbase,
} from '../../packages/localbase/src/index.ts'
import type { RequestContext } from '../../packages/localbase/src/db/database.ts'
import { scratchDatabase } from '../../packages/localbase/test/scratch-database.ts'

/** This repository's root: localbase runs its real supabase/ folder. */
const workdir = new URL('../..', import.meta.url).pathname

export type Stack = Localbase & { stop(): Promise<void> }

/**
 * Starts localbase on a free port with a temporary data dir, for one test file. `env` adds
 * to the functions' environment (an AI provider's key and base URL, say). A test that
 * restarts localbase on its data (a migration test, say) passes its own `dataDir`, which
 * stop() leaves in place, and may run another `workdir`'s supabase/ folder.
 */
export async function startStack(
  env: Record<string, string> = {},
  options: { dataDir?: string; workdir?: string } = {},
): Promise<Stack> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'sourcebook-db-test-'))
  const database = await scratchDatabase(dataDir)
  const lb = await startLocalbase({
    workdir: options.workdir ?? workdir,
    port: 0,
    dataDir,
    env: {
      ...process.env,
      PORT: '',
      HOST: '',
      DATA_DIR: '',
      DATABASE_URL: database?.url ?? '',
      ...relaxedAuthLimits,
      // The functions sign access tokens' short-lived JWTs with the project's secret.
      ACCESS_TOKEN_JWT_SECRET: DEFAULT_JWT_SECRET,
      ...env,
    },
  })
  return {
    ...lb,
    stop: async () => {
      await lb.stop()
      if (options.dataDir) return
      rmSync(dataDir, { recursive: true, force: true })
      await database?.drop()
    },
  }
}

export type User = { id: string; email: string; jwt: string }

let serial = 0

/**
 * A user as GoTrue would create one (the auth.users row fires the profile trigger), with
 * an access token carrying the claims GoTrue puts in it. Confirmed unless told otherwise,
 * as every account that can sign in is once confirmations are on; `email` overrides the
 * generated address.
 */
export async function createUser(
  stack: Stack,
  name: string,
  metadata: Record<string, unknown> = {},
  { confirmed = true, email = `${name}.${++serial}.${Date.now()}@example.test` } = {},
): Promise<User> {
  const { rows } = await stack.db.pg.query<{ id: string }>(
    `insert into auth.users (id, aud, role, email, email_confirmed_at, raw_user_meta_data,
       created_at, updated_at)
     values (gen_random_uuid(), 'authenticated', 'authenticated', $1,
       case when $3 then now() end, $2, now(), now())
     returning id`,
    [email, JSON.stringify(metadata), confirmed],
  )
  const id = rows[0]!.id
  const jwt = await new SignJWT({ role: 'authenticated', email, aal: 'aal1', session_id: id })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(id)
    .setAudience('authenticated')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(DEFAULT_JWT_SECRET))
  return { id, email, jwt }
}

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }

/** supabase-js as the given user, or anonymous. */
export function clientFor(stack: Stack, user?: User): SupabaseClient {
  return createClient(stack.url, DEFAULT_ANON_KEY, {
    auth: noSession,
    global: user ? { headers: { Authorization: `Bearer ${user.jwt}` } } : {},
  })
}

export function adminClient(stack: Stack): SupabaseClient {
  return createClient(stack.url, DEFAULT_SERVICE_ROLE_KEY, { auth: noSession })
}

/** The transaction context PostgREST would set for this caller. */
export function contextFor(user?: User): RequestContext {
  if (!user) return { role: 'anon', claims: { role: 'anon' } }
  return {
    role: 'authenticated',
    claims: { sub: user.id, role: 'authenticated', email: user.email, aud: 'authenticated' },
  }
}

/** Whether a localbase service has landed (placeholders answer 501), probed at `path`. */
export async function serviceAvailable(stack: Stack, path: string): Promise<boolean> {
  const res = await fetch(`${stack.url}${path}`, { headers: { apikey: DEFAULT_ANON_KEY } })
  await res.body?.cancel()
  return res.status !== 501
}
