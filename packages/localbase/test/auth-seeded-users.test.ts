import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestStack, type TestStack } from './helpers.ts'

// Supabase CLI projects (storage-js's own test project among them) seed users with
// crypt(..., gen_salt('bf')) and write migrations with gen_random_bytes(), all unqualified.
describe('seed and migrations with unqualified pgcrypto calls', () => {
  let stack: TestStack
  beforeAll(async () => {
    stack = await startTestStack('seed-extensions')
  })
  afterAll(() => stack?.stop())

  it('signs in a user the seed wrote with crypt() and gen_salt()', async () => {
    const { data, error } = await stack.client().auth.signInWithPassword({
      email: 'seeded@example.com',
      password: 'password123',
    })
    expect(error).toBeNull()
    expect(data.user?.id).toBe('317eadce-631a-4429-a0bb-f19a7a517b4a')
  })

  it('refuses the wrong password for that user', async () => {
    const { data, error } = await stack.client().auth.signInWithPassword({
      email: 'seeded@example.com',
      password: 'password124',
    })
    expect(error?.code).toBe('invalid_credentials')
    expect(data.user).toBeNull()
  })

  it('ran a migration default that calls gen_random_bytes()', async () => {
    const { rows } = await stack.db.pg.query<{ token: string }>(
      'select token from public.invite_tokens',
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]!.token).toMatch(/^[0-9a-f]{32}$/)
  })
})
