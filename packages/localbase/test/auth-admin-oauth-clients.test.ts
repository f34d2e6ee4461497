import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_SERVICE_ROLE_KEY } from '../src/config/keys.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// The admin API for OAuth 2.1 server clients through supabase-js (auth.admin.oauth.*), as
// GoTrue answers it with `[auth.oauth_server] enabled`, and its 404 when that is off.

let stack: TestStack
let off: TestStack
beforeAll(async () => {
  stack = await startTestStack('auth-oauth-server')
  off = await startTestStack('basic')
})
afterAll(async () => {
  await stack?.stop()
  await off?.stop()
})

const admin = () => stack.admin().auth.admin.oauth

describe('OAuth clients', () => {
  it('registers a confidential client, shows its secret once, updates, regenerates, deletes', async () => {
    const created = await admin().createClient({
      client_name: 'Notes app',
      redirect_uris: ['https://notes.example.com/callback', 'http://localhost:3000/cb'],
    })
    expect(created.error).toBeNull()
    const client = created.data!
    expect(client).toMatchObject({
      client_name: 'Notes app',
      client_type: 'confidential',
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      registration_type: 'manual',
      redirect_uris: ['https://notes.example.com/callback', 'http://localhost:3000/cb'],
    })
    expect(client.client_secret).toMatch(/^[\w-]{43}$/)

    const got = await admin().getClient(client.client_id)
    expect(got.error).toBeNull()
    expect(got.data).toMatchObject({ client_id: client.client_id, client_name: 'Notes app' })
    expect(got.data).not.toHaveProperty('client_secret')

    const updated = await admin().updateClient(client.client_id, {
      logo_uri: 'https://notes.example.com/logo.png',
    })
    expect(updated.error).toBeNull()
    expect(updated.data).toMatchObject({
      client_name: 'Notes app',
      logo_uri: 'https://notes.example.com/logo.png',
    })

    const regenerated = await admin().regenerateClientSecret(client.client_id)
    expect(regenerated.error).toBeNull()
    expect(regenerated.data!.client_secret).toMatch(/^[\w-]{43}$/)
    expect(regenerated.data!.client_secret).not.toBe(client.client_secret)

    const listed = await admin().listClients()
    expect(listed.error).toBeNull()
    expect(listed.data.clients.map((c) => c.client_id)).toContain(client.client_id)

    expect((await admin().deleteClient(client.client_id)).error).toBeNull()
    const gone = await admin().getClient(client.client_id)
    expect(gone.error).toMatchObject({ status: 404, code: 'oauth_client_not_found' })
    const relisted = await admin().listClients()
    expect(relisted.data.clients.map((c) => c.client_id)).not.toContain(client.client_id)
  })

  it('registers a public client without a secret, which cannot get one', async () => {
    const created = await admin().createClient({
      client_name: 'CLI',
      redirect_uris: ['http://127.0.0.1:8765/callback'],
      token_endpoint_auth_method: 'none',
    })
    expect(created.error).toBeNull()
    expect(created.data).toMatchObject({
      client_type: 'public',
      token_endpoint_auth_method: 'none',
    })
    expect(created.data).not.toHaveProperty('client_secret')
    const regenerated = await admin().regenerateClientSecret(created.data!.client_id)
    expect(regenerated.error).toMatchObject({
      status: 400,
      message: 'Cannot regenerate secret for public client',
    })
  })

  it('refuses bad input with 400 validation_failed and stores nothing', async () => {
    const before = (await admin().listClients()).data.clients.length
    const cases: [Parameters<ReturnType<typeof admin>['createClient']>[0], RegExp][] = [
      [{ client_name: 'none', redirect_uris: [] }, /^redirect_uris is required$/],
      [
        { client_name: 'http', redirect_uris: ['http://evil.example.com/cb'] },
        /only allowed for localhost/,
      ],
      [{ client_name: 'js', redirect_uris: ['javascript://x.example/cb'] }, /not allowed/],
      [{ client_name: 'hash', redirect_uris: ['https://a.example/cb#x'] }, /fragment/],
    ]
    for (const [params, message] of cases) {
      const { data, error } = await admin().createClient(params)
      expect(data).toBeNull()
      expect(error).toMatchObject({ status: 400, code: 'validation_failed' })
      expect(error!.message).toMatch(message)
    }
    expect((await admin().listClients()).data.clients).toHaveLength(before)
    const unknown = await admin().getClient('00000000-0000-0000-0000-000000000000')
    expect(unknown.error).toMatchObject({ status: 404, code: 'oauth_client_not_found' })
    const created = await admin().createClient({
      client_name: 'x',
      redirect_uris: ['https://x.example/cb'],
    })
    const empty = await admin().updateClient(created.data!.client_id, {})
    expect(empty.error).toMatchObject({ status: 400, message: 'No fields provided for update' })
  })

  it('is for the service key only, and answers 404 feature_disabled when the server is off', async () => {
    const anon = await stack.client().auth.admin.oauth.listClients()
    expect(anon.error).toMatchObject({ status: 403 })
    const disabled = await off.client(DEFAULT_SERVICE_ROLE_KEY).auth.admin.oauth.listClients()
    expect(disabled.error).toMatchObject({
      status: 404,
      code: 'feature_disabled',
      message: 'OAuth server is disabled',
    })
  })
})
