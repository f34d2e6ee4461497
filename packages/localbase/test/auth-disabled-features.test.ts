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
