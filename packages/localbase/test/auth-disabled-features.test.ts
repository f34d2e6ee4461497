import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestStack, type TestStack } from './helpers.ts'

// SAML SSO and identity linking are not provided; GoTrue's "switched off" answers are.
let stack: TestStack
beforeAll(async () => {
  stack = await startTestStack('auth')
})
afterAll(() => stack?.stop())

const signedIn = async () => {
  const client = stack.client()
  const email = `linking-${Date.now()}-${Math.random()}@example.com`
  const { error } = await client.auth.signUp({ email, password: 'correct-horse' })
  expect(error).toBeNull()
  return client
}

describe('features that are switched off', () => {
  it('answers signInWithSSO with 404 saml_provider_disabled', async () => {
    for (const params of [{ domain: 'example.com' }, { providerId: crypto.randomUUID() }]) {
      const { data, error } = await stack.client().auth.signInWithSSO(params)
      expect(error).toMatchObject({
        status: 404,
        code: 'saml_provider_disabled',
        message: 'SAML 2.0 is disabled',
      })
      expect(data).toBeNull()
    }
  })

  it('answers linkIdentity and unlinkIdentity with 404 manual_linking_disabled', async () => {
    const client = await signedIn()
    const linked = await client.auth.linkIdentity({
      provider: 'github',
      options: { skipBrowserRedirect: true },
    })
    const disabled = { status: 404, code: 'manual_linking_disabled' }
    expect(linked.error).toMatchObject({ ...disabled, message: 'Manual linking is disabled' })

    const { data } = await client.auth.getUserIdentities()
    expect(data!.identities.length).toBeGreaterThan(0)
    const unlinked = await client.auth.unlinkIdentity(data!.identities[0]!)
    expect(unlinked.error).toMatchObject(disabled)
  })

  it('still asks for a session first (401) before saying linking is off', async () => {
    const res = await fetch(`${stack.url}/auth/v1/user/identities/authorize?provider=github`, {
      headers: { apikey: stack.config.keys.anonKey },
    })
    expect(res.status).toBe(401)
  })
})

describe('signInWithIdToken, with no OIDC provider enabled', () => {
  const signIn = (provider: string, token: string) =>
    stack.client().auth.signInWithIdToken({ provider, token, nonce: 'n' })

  it('answers a known provider with 400 provider_disabled and its issuer', async () => {
    const { data, error } = await signIn('google', 'mock-id-token')
    expect(error).toMatchObject({
      status: 400,
      code: 'provider_disabled',
      message: 'Provider (issuer "https://accounts.google.com") is not enabled',
    })
    expect(data.session).toBeNull()
  })

  it('detects the Apple issuer from the token before saying so', async () => {
    const undetectable = await signIn('apple', 'mock-id-token')
    expect(undetectable.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Unable to detect issuer in ID token for Apple provider',
    })
    const claims = Buffer.from(JSON.stringify({ iss: 'https://appleid.apple.com' })).toString(
      'base64url',
    )
    const apple = await signIn('apple', `e30.${claims}.sig`)
    expect(apple.error).toMatchObject({
      code: 'provider_disabled',
      message: 'Provider (issuer "https://appleid.apple.com") is not enabled',
    })
  })

  it('refuses an unknown provider as a custom OIDC provider that is not allowed', async () => {
    const { error } = await signIn('acme', 'mock-id-token')
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Custom OIDC provider "acme" not allowed',
    })
  })
})

describe('MFA (off unless config.toml turns it on) and Web3', () => {
  it('refuses to enroll any factor type, after asking for a session', async () => {
    const client = await signedIn()
    const totp = await client.auth.mfa.enroll({ factorType: 'totp' })
    expect(totp.error).toMatchObject({
      status: 422,
      code: 'mfa_totp_enroll_not_enabled',
      message: 'MFA enroll is disabled for TOTP',
    })
    const phone = await client.auth.mfa.enroll({ factorType: 'phone', phone: '+15555550123' })
    expect(phone.error).toMatchObject({ status: 422, code: 'mfa_phone_enroll_not_enabled' })
    const webauthn = await client.auth.mfa.enroll({ factorType: 'webauthn' })
    expect(webauthn.error).toMatchObject({
      status: 422,
      code: 'mfa_webauthn_enroll_not_enabled',
      message: 'MFA enroll is disabled for WebAuthn',
    })

    const anonymous = stack.client()
    expect((await anonymous.auth.signInAnonymously()).error).toBeNull()
    const refused = await anonymous.auth.mfa.enroll({ factorType: 'totp' })
    expect(refused.error).toMatchObject({ status: 403, code: 'no_authorization' })

    const res = await fetch(`${stack.url}/auth/v1/factors`, {
      method: 'POST',
      headers: { apikey: stack.config.keys.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ factor_type: 'totp' }),
    })
    expect(res.status).toBe(401)
    expect((await res.json()).msg).toBe('This endpoint requires a valid Bearer token')
  })

  it('knows no factor id', async () => {
    const client = await signedIn()
    const { error } = await client.auth.mfa.challenge({ factorId: crypto.randomUUID() })
    expect(error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' })
    const unenrolled = await client.auth.mfa.unenroll({ factorId: 'not-a-uuid' })
    expect(unenrolled.error).toMatchObject({ status: 404, code: 'validation_failed' })
  })

  it('answers a Web3 sign-in with 422 web3_provider_disabled', async () => {
    const res = await fetch(`${stack.url}/auth/v1/token?grant_type=web3`, {
      method: 'POST',
      headers: { apikey: stack.config.keys.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ chain: 'ethereum', message: 'm', signature: '0x00' }),
    })
    expect(res.status).toBe(422)
    expect(await res.json()).toMatchObject({
      error_code: 'web3_provider_disabled',
      msg: 'Web3 provider is disabled',
    })
  })
})
