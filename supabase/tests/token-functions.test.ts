import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ask, createConversation, streamedText } from './chat-client.ts'
import { clientFor, startStack, type User } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// The search and chat functions over plain HTTP with a workspace access token (a script's
// way in): the token acts as the person who made it, only in its own workspace.
const stack = await startStack({ ACCESS_TOKEN_RATE_LIMIT_PER_MINUTE: '8' })
afterAll(() => stack.stop())

let people: People
let workspaceId: string
let otherWorkspaceId: string

async function tokenOf(user: User, workspace: string, scope: 'read' | 'write' = 'read') {
  const { data, error } = await clientFor(stack, user).rpc('create_access_token', {
    workspace_id: workspace,
    name: 'script',
    scope,
    expires_in_days: 30,
  })
  if (error) throw error
  return data as { id: string; token: string }
}

/** A POST with only the token: no apikey, no session, as a script would send it. */
async function post(name: string, token: string, body: Record<string, unknown>) {
  const res = await fetch(`${stack.url}/functions/v1/${name}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: res.status, headers: res.headers, body: (await res.json()) as never }
}

beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
  otherWorkspaceId = (await createWorld(stack, people)).workspaceId
  await addReadyDocument(stack, people.editor, workspaceId, 'Herbarium notes', [
    'The mangrove samples from the estuary were dried slowly to keep their leaves intact.',
  ])
  await addReadyDocument(stack, people.editor, otherWorkspaceId, 'Canary ledger', [
    'The canary phrase is tangerine lighthouse.',
  ])
})

describe('search with an access token', () => {
  it('finds what the person who made it can see', async () => {
    const { token } = await tokenOf(people.viewer, workspaceId)
    const reply = await post('search', token, { workspace_id: workspaceId, query: 'mangrove' })
    expect(reply.status).toBe(200)
    const { results } = reply.body as { results: { title: string }[] }
    expect(results.map((r) => r.title)).toEqual(['Herbarium notes'])
  })

  it('refuses another workspace with 403, even one the person belongs to', async () => {
    const { token } = await tokenOf(people.viewer, workspaceId)
    const reply = await post('search', token, {
      workspace_id: otherWorkspaceId,
      query: 'tangerine lighthouse',
    })
    expect(reply).toMatchObject({ status: 403, body: { code: 'wrong_workspace' } })
  })

  it('answers 401 for unknown, revoked and expired tokens', async () => {
    const body = { workspace_id: workspaceId, query: 'mangrove' }
    const unknown = await post('search', 'sbk_unknown', body)
    expect(unknown).toMatchObject({ status: 401, body: { code: 'invalid_token' } })
    expect(unknown.headers.get('www-authenticate')).toMatch(/^Bearer/)

    const revoked = await tokenOf(people.viewer, workspaceId)
    await clientFor(stack, people.viewer).rpc('revoke_access_token', { id: revoked.id })
    expect(await post('search', revoked.token, body)).toMatchObject({
      status: 401,
      body: { code: 'invalid_token', message: 'This access token is unknown or has been revoked' },
    })

    const expired = await tokenOf(people.viewer, workspaceId)
    await stack.db.pg.query(
      `update public.access_tokens set expires_at = now() - interval '1 minute' where id = $1`,
      [expired.id],
    )
    expect(await post('search', expired.token, body)).toMatchObject({
      status: 401,
      body: { code: 'token_expired' },
    })
  })

  it('still takes a session JWT, and refuses a forged one with 401', async () => {
    const body = { workspace_id: workspaceId, query: 'mangrove' }
    expect((await post('search', people.viewer.jwt, body)).status).toBe(200)
    const forged = `${people.viewer.jwt.slice(0, -4)}AAAA`
    expect(await post('search', forged, body)).toMatchObject({
      status: 401,
      body: { code: 'unauthorized' },
    })
  })

  it('limits each token per minute with 429 and Retry-After', async () => {
    const { token } = await tokenOf(people.viewer, workspaceId)
    const body = { workspace_id: workspaceId, query: 'mangrove' }
    for (let i = 0; i < 8; i++) expect((await post('search', token, body)).status).toBe(200)
    const limited = await post('search', token, body)
    expect(limited).toMatchObject({ status: 429, body: { code: 'rate_limited' } })
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

describe('chat with an access token', () => {
  it('answers with citations as the person, in their own conversation', async () => {
    const { token } = await tokenOf(people.viewer, workspaceId)
    const conversationId = await createConversation(stack, people.viewer, workspaceId)
    const asToken = { ...people.viewer, jwt: token }
    const reply = await ask(stack, asToken, {
      conversation_id: conversationId,
      content: 'How were the mangrove samples dried?',
    })
    expect(reply.status).toBe(200)
    expect(reply.events.at(-1)?.event).toBe('done')
    expect(streamedText(reply.events)).toContain('dried slowly')
    const sources = reply.events.find((e) => e.event === 'sources')
    expect(JSON.stringify(sources?.data)).toContain('Herbarium notes')
  })

  it('refuses a conversation of another workspace with 403', async () => {
    const { token } = await tokenOf(people.viewer, workspaceId)
    const conversationId = await createConversation(stack, people.viewer, otherWorkspaceId)
    const reply = await ask(
      stack,
      { ...people.viewer, jwt: token },
      {
        conversation_id: conversationId,
        content: 'What is the canary phrase?',
      },
    )
    expect(reply).toMatchObject({ status: 403, body: { code: 'wrong_workspace' } })
  })
})
