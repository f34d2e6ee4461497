import type { SupabaseClient } from '@supabase/supabase-js'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { totpCode } from '../src/auth/totp.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// TOTP multi-factor authentication through supabase-js (auth.mfa.*), as GoTrue answers it.
// Codes are computed here from the secret enrolment returns, as an authenticator app would.

let stack: TestStack
beforeAll(async () => {
  stack = await startTestStack('auth-mfa')
})
afterAll(() => stack?.stop())

let counter = 0
async function signedIn(): Promise<{ client: SupabaseClient; email: string; password: string }> {
  const client = stack.client()
  const email = `mfa${++counter}-${Date.now()}@example.com`
  const password = 'correct-horse'
  const { error } = await client.auth.signUp({ email, password })
  expect(error).toBeNull()
  return { client, email, password }
}

/** A code one step ahead: accepted (±1 step of skew) and newer than any the test spent. */
const nextCode = (secret: string) => totpCode(secret, Date.now() + 30_000)

async function enrolled(client: SupabaseClient) {
  const { data, error } = await client.auth.mfa.enroll({
    factorType: 'totp',
    friendlyName: 'Phone',
  })
  expect(error).toBeNull()
  const { data: verified, error: verifyError } = await client.auth.mfa.challengeAndVerify({
    factorId: data!.id,
    code: totpCode(data!.totp.secret),
  })
  expect(verifyError).toBeNull()
  return { factorId: data!.id, secret: data!.totp.secret, session: verified! }
}

describe('enrolment', () => {
  it('returns an unverified factor with a QR code, secret and otpauth URI', async () => {
    const { client, email } = await signedIn()
    const { data, error } = await client.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Laptop',
    })
    expect(error).toBeNull()
    expect(data).toMatchObject({ type: 'totp', friendly_name: 'Laptop' })
    expect(data!.totp.secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(data!.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg /)
    // The issuer defaults to the site URL's host; the account is the user's address.
    expect(data!.totp.uri).toBe(
      `otpauth://totp/app.example.test%3A3000:${encodeURIComponent(email)}?algorithm=SHA1&digits=6` +
        `&issuer=app.example.test%3A3000&period=30&secret=${data!.totp.secret}`,
    )

    const user = (await client.auth.getUser()).data.user!
    expect(user.factors).toEqual([
      expect.objectContaining({ id: data!.id, factor_type: 'totp', status: 'unverified' }),
    ])
    expect(user.factors![0]).not.toHaveProperty('secret')
    const listed = await client.auth.mfa.listFactors()
    expect(listed.data!.totp).toEqual([])
  })

  it('leaves factors off a user who has none, and refuses a duplicate name or a fourth factor', async () => {
    const { client } = await signedIn()
    expect((await client.auth.getUser()).data.user).not.toHaveProperty('factors')
    await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'A' })
    const duplicate = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'A' })
    expect(duplicate.error).toMatchObject({ status: 422, code: 'mfa_factor_name_conflict' })
    await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'B' })
    await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'C' })
    const fourth = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'D' })
    expect(fourth.error).toMatchObject({ status: 422, code: 'too_many_enrolled_mfa_factors' })
  })

  it('refuses an anonymous user and an unknown factor type', async () => {
    const anonymous = stack.client()
    await anonymous.auth.signInAnonymously()
    const refused = await anonymous.auth.mfa.enroll({ factorType: 'totp' })
    expect(refused.error).toMatchObject({ status: 403, code: 'no_authorization' })
    const { client } = await signedIn()
    const phone = await client.auth.mfa.enroll({ factorType: 'phone', phone: '+15555550123' })
    expect(phone.error).toMatchObject({ status: 422, code: 'mfa_phone_enroll_not_enabled' })
  })
})

describe('WebAuthn enrolment', () => {
  it('records an unverified webauthn factor, listed and unenrolled like any other', async () => {
    const { client } = await signedIn()
    const { data, error } = await client.auth.mfa.enroll({
      factorType: 'webauthn',
      friendlyName: 'Security key',
    })
    expect(error).toBeNull()
    expect(data).toEqual({
      id: expect.any(String),
      type: 'webauthn',
      friendly_name: 'Security key',
    })
    const unnamed = await client.auth.mfa.enroll({ factorType: 'webauthn', friendlyName: '' })
    expect(unnamed.error).toBeNull()
    const user = (await client.auth.getUser()).data.user!
    expect(user.factors).toEqual([
      expect.objectContaining({ id: data!.id, factor_type: 'webauthn', status: 'unverified' }),
      expect.objectContaining({ id: unnamed.data!.id, factor_type: 'webauthn' }),
    ])
    const duplicate = await client.auth.mfa.enroll({
      factorType: 'webauthn',
      friendlyName: 'Security key',
    })
    expect(duplicate.error).toMatchObject({ status: 422, code: 'mfa_factor_name_conflict' })
    for (const factor of [data!, unnamed.data!]) {
      expect((await client.auth.mfa.unenroll({ factorId: factor.id })).error).toBeNull()
    }
    expect((await client.auth.getUser()).data.user).not.toHaveProperty('factors')
  })
})

describe('challenge and verify', () => {
  it('raises the session to AAL2 with totp in amr, and verifies the factor', async () => {
    const { client } = await signedIn()
    const before = await client.auth.mfa.getAuthenticatorAssuranceLevel()
    expect(before.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' })

    const { data: factor } = await client.auth.mfa.enroll({ factorType: 'totp' })
    const { data: challenge, error } = await client.auth.mfa.challenge({ factorId: factor!.id })
    expect(error).toBeNull()
    expect(challenge!.type).toBe('totp')
    expect(challenge!.expires_at - Date.now() / 1000).toBeGreaterThan(290)
    const verified = await client.auth.mfa.verify({
      factorId: factor!.id,
      challengeId: challenge!.id,
      code: totpCode(factor!.totp.secret),
    })
    expect(verified.error).toBeNull()
    const claims = decodeJwt(verified.data!.access_token)
    expect(claims.aal).toBe('aal2')
    expect((claims.amr as { method: string }[]).map((entry) => entry.method)).toEqual([
      'totp',
      'password',
    ])
    const after = await client.auth.mfa.getAuthenticatorAssuranceLevel()
    expect(after.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' })
    const listed = await client.auth.mfa.listFactors()
    expect(listed.data!.totp).toEqual([
      expect.objectContaining({ id: factor!.id, status: 'verified' }),
    ])

    // A refresh keeps the level; the refresh token the AAL1 session held was swapped.
    const refreshed = await client.auth.refreshSession()
    expect(decodeJwt(refreshed.data.session!.access_token).aal).toBe('aal2')
  })

  it('refuses a wrong code, a replayed code and an answered challenge', async () => {
    const { client } = await signedIn()
    const { factorId, secret } = await enrolled(client)
    const challenge = (await client.auth.mfa.challenge({ factorId })).data!
    const wrong = String((Number(nextCode(secret)) + 1) % 1_000_000).padStart(6, '0')
    const refused = await client.auth.mfa.verify({
      factorId,
      challengeId: challenge.id,
      code: wrong,
    })
    expect(refused.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' })

    // The code that enrolled the factor, on a fresh challenge: already spent.
    const replayed = await client.auth.mfa.verify({
      factorId,
      challengeId: challenge.id,
      code: totpCode(secret),
    })
    expect(replayed.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' })

    const code = nextCode(secret)
    const ok = await client.auth.mfa.verify({ factorId, challengeId: challenge.id, code })
    expect(ok.error).toBeNull()
    const again = await client.auth.mfa.verify({ factorId, challengeId: challenge.id, code })
    expect(again.error).toMatchObject({ status: 422, code: 'mfa_ip_address_mismatch' })
    const fresh = (await client.auth.mfa.challenge({ factorId })).data!
    const reused = await client.auth.mfa.verify({ factorId, challengeId: fresh.id, code })
    expect(reused.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' })
  })

  it('asks a new sign-in for the code: AAL1 until verified, nextLevel aal2', async () => {
    const { client, email, password } = await signedIn()
    const { factorId, secret } = await enrolled(client)
    const again = stack.client()
    const { data } = await again.auth.signInWithPassword({ email, password })
    expect(decodeJwt(data.session!.access_token).aal).toBe('aal1')
    const level = await again.auth.mfa.getAuthenticatorAssuranceLevel()
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' })
    // An AAL1 session may neither add a factor nor remove the verified one.
    const added = await again.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Other' })
    expect(added.error).toMatchObject({ status: 403, code: 'insufficient_aal' })
    const removed = await again.auth.mfa.unenroll({ factorId })
    expect(removed.error).toMatchObject({ status: 422, code: 'insufficient_aal' })
    const verified = await again.auth.mfa.challengeAndVerify({ factorId, code: nextCode(secret) })
    expect(decodeJwt(verified.data!.access_token).aal).toBe('aal2')
  })

  it('answers an unknown factor or challenge as GoTrue does', async () => {
    const { client } = await signedIn()
    const unknown = await client.auth.mfa.challenge({ factorId: crypto.randomUUID() })
    expect(unknown.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' })
    const { data: factor } = await client.auth.mfa.enroll({ factorType: 'totp' })
    const noChallenge = await client.auth.mfa.verify({
      factorId: factor!.id,
      challengeId: crypto.randomUUID(),
      code: '123456',
    })
    expect(noChallenge.error).toMatchObject({ status: 422, code: 'mfa_factor_not_found' })
    const empty = await client.auth.mfa.verify({
      factorId: factor!.id,
      challengeId: crypto.randomUUID(),
      code: '',
    })
    expect(empty.error).toMatchObject({ status: 400, code: 'validation_failed' })
  })

  it('refuses an expired challenge and removes it', async () => {
    const { client } = await signedIn()
    const { data: factor } = await client.auth.mfa.enroll({ factorType: 'totp' })
    const challenge = (await client.auth.mfa.challenge({ factorId: factor!.id })).data!
    await stack.db.pg.query(
      `update auth.mfa_challenges set created_at = now() - interval '301 seconds' where id = $1`,
      [challenge.id],
    )
    const late = await client.auth.mfa.verify({
      factorId: factor!.id,
      challengeId: challenge.id,
      code: totpCode(factor!.totp.secret),
    })
    expect(late.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' })
    const { rows } = await stack.db.pg.query('select 1 from auth.mfa_challenges where id = $1', [
      challenge.id,
    ])
    expect(rows).toHaveLength(0)
  })
})

describe('unenrol', () => {
  it('removes a factor from an AAL2 session and lowers the session to AAL1 on refresh', async () => {
    const { client } = await signedIn()
    const { factorId } = await enrolled(client)
    const { data, error } = await client.auth.mfa.unenroll({ factorId })
    expect(error).toBeNull()
    expect(data).toEqual({ id: factorId })
    expect((await client.auth.getUser()).data.user).not.toHaveProperty('factors')
    const refreshed = await client.auth.refreshSession()
    const claims = decodeJwt(refreshed.data.session!.access_token)
    expect(claims.aal).toBe('aal1')
    expect((claims.amr as { method: string }[]).map((entry) => entry.method)).toEqual(['password'])
  })
})

describe('admin factor API', () => {
  it('lists and deletes a user’s factors with the service key only', async () => {
    const { client } = await signedIn()
    const { factorId } = await enrolled(client)
    const userId = (await client.auth.getUser()).data.user!.id
    const admin = stack.admin().auth.admin.mfa
    const listed = await admin.listFactors({ userId })
    expect(listed.error).toBeNull()
    expect(listed.data!.factors).toEqual([
      expect.objectContaining({ id: factorId, status: 'verified', factor_type: 'totp' }),
    ])
    const refused = await stack.client().auth.admin.mfa.listFactors({ userId })
    expect(refused.error).toMatchObject({ status: 403 })

    const deleted = await admin.deleteFactor({ userId, id: factorId })
    expect(deleted.error).toBeNull()
    // auth-js hands back the response body wrapped once more: {data: factor, error: null}.
    expect(deleted.data).toMatchObject({ data: { id: factorId, status: 'verified' } })
    expect((await admin.listFactors({ userId })).data!.factors).toEqual([])
    const gone = await admin.deleteFactor({ userId, id: factorId })
    expect(gone.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' })
  })
})

describe('limits', () => {
  it('answers a burst of verifications beyond 30 from one address with 429', async () => {
    const { client } = await signedIn()
    const token = (await client.auth.getSession()).data.session!.access_token
    const statuses: number[] = []
    for (let i = 0; i < 32; i++) {
      const res = await fetch(`${stack.url}/auth/v1/factors/${crypto.randomUUID()}/verify`, {
        method: 'POST',
        headers: { apikey: stack.config.keys.anonKey, authorization: `Bearer ${token}` },
        body: JSON.stringify({ challenge_id: crypto.randomUUID(), code: '123456' }),
      })
      statuses.push(res.status)
      if (res.status === 429) {
        expect(await res.json()).toMatchObject({ error_code: 'over_request_rate_limit' })
        break
      }
    }
    expect(statuses.at(-1)).toBe(429)
    expect(statuses.slice(0, -1).every((status) => status === 404)).toBe(true)
  })
})
