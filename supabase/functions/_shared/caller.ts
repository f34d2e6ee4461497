// Who is calling a function. A signed-in person's JWT passes as is (PostgREST verifies it on
// the first query). A workspace access token (`Bearer sbk_…`) is looked up by its hash through
// authenticate_access_token, the one RPC the service role runs here, and exchanged for a
// five-minute JWT of the person who made it, signed with the project's JWT secret: every
// query after that goes through PostgREST as that person, so row-level security decides what
// the token sees exactly as it does for them in the browser. The token's workspace and scope
// narrow it further (grant below); they never widen it.
//
// The secret reaches the function as the ACCESS_TOKEN_JWT_SECRET function secret (hosted:
// `supabase secrets set ACCESS_TOKEN_JWT_SECRET=<the project's JWT secret>`; localbase:
// `npm start` and the tests pass localbase's own). Names starting SUPABASE_ are reserved.
// A hosted project that has moved to asymmetric signing keys still verifies JWTs signed with
// its legacy secret for as long as that secret is kept as a previous key; revoking it would
// end access tokens until this signs with a key the project trusts.
import { createClient } from 'npm:@supabase/supabase-js@2.119.1'
import { SignJWT } from 'npm:jose@6.2.17'
import { corsHeaders, fail } from './http.ts'

/** What an access token may do, from authenticate_access_token. */
export type Grant = {
  tokenId: string
  userId: string
  workspaceId: string
  /** Narrowed to read when the person is now a viewer. */
  scope: 'read' | 'write'
}

/** The Authorization to send to PostgREST as the caller, and the token's grant if any. */
export type Caller = { authorization: string; grant: Grant | null }

const url = Deno.env.get('SUPABASE_URL')!
const serviceKey = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!
const jwtSecret = Deno.env.get('ACCESS_TOKEN_JWT_SECRET')
/** Uses per token and minute; ACCESS_TOKEN_RATE_LIMIT_PER_MINUTE overrides (tests). */
const perMinute = Number(Deno.env.get('ACCESS_TOKEN_RATE_LIMIT_PER_MINUTE')) || 120
const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }
const admin = createClient(url, serviceKey, { auth: noSession })
const lifetimeSeconds = 300

type Authenticated = {
  status: 'ok' | 'invalid' | 'expired' | 'rate_limited'
  retry_after?: number
  token_id: string
  user_id: string
  email: string | null
  workspace_id: string
  scope: 'read' | 'write'
}

/** A 401 that tells a client which scheme to use (RFC 6750). */
const unauthorized = (code: string, message: string) =>
  Response.json(
    { code, message },
    { status: 401, headers: { ...corsHeaders, 'WWW-Authenticate': 'Bearer realm="sourcebook"' } },
  )

/** The caller, or the error response: 401 without credentials or with a dead token, 429. */
export async function callerOf(req: Request): Promise<Caller | Response> {
  const authorization = req.headers.get('Authorization')
  const bearer = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1]
  if (!authorization || !bearer) {
    return unauthorized('unauthorized', 'Sign in, or send an access token as Bearer sbk_…')
  }
  if (!bearer.startsWith('sbk_')) return { authorization, grant: null }
  if (!jwtSecret) {
    return fail(
      500,
      'not_configured',
      'Access tokens are not set up on this server: set the ACCESS_TOKEN_JWT_SECRET function secret',
    )
  }
  const { data, error } = await admin.rpc('authenticate_access_token', {
    token: bearer,
    max_per_minute: perMinute,
  })
  if (error) return fail(502, 'auth_failed', `Could not check the access token: ${error.message}`)
  const found = data as Authenticated
  switch (found.status) {
    case 'invalid':
      return unauthorized('invalid_token', 'This access token is unknown or has been revoked')
    case 'expired':
      return unauthorized('token_expired', 'This access token has expired: create a new one')
    case 'rate_limited':
      return Response.json(
        {
          code: 'rate_limited',
          message: `Too many requests with this token: at most ${perMinute} a minute. Try again in ${found.retry_after} s.`,
        },
        { status: 429, headers: { ...corsHeaders, 'Retry-After': String(found.retry_after) } },
      )
  }
  const now = Math.floor(Date.now() / 1000)
  const jwt = await new SignJWT({
    role: 'authenticated',
    email: found.email ?? undefined,
    aal: 'aal1',
    is_anonymous: false,
    access_token_id: found.token_id,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(`${url}/auth/v1`)
    .setSubject(found.user_id)
    .setAudience('authenticated')
    .setIssuedAt(now)
    .setExpirationTime(now + lifetimeSeconds)
    .sign(new TextEncoder().encode(jwtSecret))
  return {
    authorization: `Bearer ${jwt}`,
    grant: {
      tokenId: found.token_id,
      userId: found.user_id,
      workspaceId: found.workspace_id,
      scope: found.scope,
    },
  }
}

/** The 403 for a token used on another workspace than its own. */
export const foreignWorkspace = () =>
  fail(403, 'wrong_workspace', 'This access token belongs to another workspace')
