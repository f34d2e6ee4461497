import { createHash } from 'node:crypto'
import type { ServiceContext } from '../context.ts'
import type { Transaction } from '../db/database.ts'
import { AuthError, badRequest, validation } from './errors.ts'
import { type Body, str } from './http.ts'
import type { clientOf } from './client.ts'
import { type SessionJson, startSession } from './sessions.ts'

// The PKCE flow for mailed links (internal/api/pkce.go, token.go PKCE): a request with
// a code_challenge records a flow state; its link carries a `pkce_` token; following it
// redirects with ?code=, which POST /token?grant_type=pkce exchanges with the verifier.

export const PKCE_PREFIX = 'pkce_'
const FLOW_LIFETIME = '5 minutes'

export type Challenge = { challenge: string; method: 's256' | 'plain' }

/** The request's code challenge, or null for the implicit flow. */
export function challengeOf(body: Body): Challenge | null {
  const challenge = str(body, 'code_challenge') ?? ''
  const method = (str(body, 'code_challenge_method') ?? '').toLowerCase()
  if (!challenge && !method) return null
  if (!challenge || !method) {
    throw validation('PKCE flow requires code_challenge_method and code_challenge')
  }
  if (method !== 's256' && method !== 'plain') {
    throw validation(`unsupported code_challenge method "${method}"`)
  }
  if (challenge.length < 43 || challenge.length > 128) {
    throw validation('code challenge has to be between 43 and 128 characters')
  }
  if (!/^[A-Za-z0-9._~-]+$/.test(challenge)) {
    throw validation(
      'code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes',
    )
  }
  return { challenge, method }
}

/** GoTrue's names for how each kind of link authenticates (models.ParseAuthenticationMethod). */
const methodOf = {
  signup: 'email/signup',
  invite: 'invite',
  magiclink: 'magiclink',
  recovery: 'recovery',
  email_change: 'email_change',
} as const
export type FlowKind = keyof typeof methodOf

export async function recordFlow(
  tx: Transaction,
  userId: string,
  kind: FlowKind,
  pkce: Challenge,
): Promise<void> {
  await tx.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge,
       provider_type, created_at, updated_at, authentication_method)
     values (gen_random_uuid(), $1, gen_random_uuid()::text, $2, $3, 'email', now(), now(), $4)`,
    [userId, pkce.method, pkce.challenge, methodOf[kind]],
  )
}

/** The auth code of the user's newest flow for this kind of link, marked as issued. */
export async function issueAuthCode(
  tx: Transaction,
  userId: string,
  kind: FlowKind,
): Promise<string | null> {
  const { rows } = await tx.query<{ auth_code: string }>(
    `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
     where id = (select id from auth.flow_state where user_id = $1 and authentication_method = $2
                 order by created_at desc limit 1)
     returning auth_code`,
    [userId, methodOf[kind]],
  )
  return rows[0]?.auth_code ?? null
}

function matches(
  flow: { code_challenge: string; code_challenge_method: string },
  verifier: string,
) {
  const expected =
    flow.code_challenge_method === 's256'
      ? createHash('sha256').update(verifier).digest('base64url')
      : verifier
  return expected === flow.code_challenge
}

type Flow = {
  user_id: string
  code_challenge: string
  code_challenge_method: string
  authentication_method: string
  expired: boolean
}

export async function exchangeCode(
  ctx: ServiceContext,
  body: Body,
  client: ReturnType<typeof clientOf>,
): Promise<SessionJson> {
  const authCode = str(body, 'auth_code')
  const verifier = str(body, 'code_verifier')
  if (!authCode || !verifier) {
    throw validation('invalid request: both auth code and code verifier should be non-empty')
  }
  return ctx.db.asService(async (tx) => {
    const { rows } = await tx.query<Flow>(
      `delete from auth.flow_state where auth_code = $1 and user_id is not null
       returning user_id, code_challenge, code_challenge_method, authentication_method,
         coalesce(auth_code_issued_at, created_at) < now() - interval '${FLOW_LIFETIME}' as expired`,
      [authCode],
    )
    const flow = rows[0]
    if (!flow) {
      throw new AuthError(
        404,
        'flow_state_not_found',
        'invalid flow state, no valid flow state found',
      )
    }
    if (flow.expired) {
      throw new AuthError(422, 'flow_state_expired', 'invalid flow state, flow state has expired')
    }
    if (!matches(flow, verifier)) {
      throw badRequest(
        'bad_code_verifier',
        'code challenge does not match previously saved code verifier',
      )
    }
    return startSession(ctx, tx, flow.user_id, flow.authentication_method, client)
  })
}
