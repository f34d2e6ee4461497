import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestStack, type TestStack } from './helpers.ts'

// GoTrue validates addresses with checkmail's format; auth-js's own suite sends `xx:;x@x.x` to
// createUser, inviteUserByEmail and generateLink and expects 400 "invalid format" from each.
let stack: TestStack
beforeAll(async () => {
  stack = await startTestStack('auth')
})
afterAll(() => stack?.stop())

const invalidFormat = {
  status: 400,
  code: 'validation_failed',
  message: 'Unable to validate email address: invalid format',
}

describe('email address format', () => {
  it.each(['xx:;x@x.x', 'a..b@example.com', '.a@example.com', 'a@b.1', 'a@-b.com', 'a@localhost'])(
    'refuses %s on sign-up, admin createUser, invite and generateLink',
    async (email) => {
      const signUp = await stack.client().auth.signUp({ email, password: 'correct-horse' })
      expect(signUp.error).toMatchObject(invalidFormat)
      expect(signUp.data.user).toBeNull()

      const admin = stack.admin().auth.admin
      const created = await admin.createUser({ email, password: 'correct-horse' })
      expect(created.error).toMatchObject(invalidFormat)
      expect(created.data.user).toBeNull()
      const invited = await admin.inviteUserByEmail(email)
      expect(invited.error).toMatchObject(invalidFormat)
      const link = await admin.generateLink({ type: 'magiclink', email })
      expect(link.error).toMatchObject(invalidFormat)
    },
  )

  it.each(['first.last+tag@sub.example.com', "o'brien_1@my-domain.co.uk", 'jörg@exämple.de'])(
    'accepts %s',
    async (email) => {
      const { data, error } = await stack.admin().auth.admin.createUser({
        email,
        password: 'correct-horse',
      })
      expect(error).toBeNull()
      expect(data.user!.email).toBe(email.toLowerCase())
    },
  )
})
