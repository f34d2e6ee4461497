import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestStack, type TestStack } from './helpers.ts'

// POST /verify checks its parameters as GoTrue's VerifyParams.Validate does (auth-js's suite
// sends phone OTPs, malformed phones and mixed parameters).
let stack: TestStack
beforeAll(async () => {
  stack = await startTestStack('auth')
})
afterAll(() => stack?.stop())

const verify = (body: object) =>
  fetch(`${stack.url}/auth/v1/verify`, {
    method: 'POST',
    headers: { apikey: stack.config.keys.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (res) => ({ status: res.status, body: await res.json() }))

describe('POST /verify parameters', () => {
  it('answers an unknown phone OTP (sms, phone_change) as expired, 403 otp_expired', async () => {
    for (const type of ['sms', 'phone_change'] as const) {
      const { data, error } = await stack
        .client()
        .auth.verifyOtp({ phone: '+15555550123', token: '123456', type })
      expect(error).toMatchObject({
        status: 403,
        code: 'otp_expired',
        message: 'Token has expired or is invalid',
      })
      expect(data.user).toBeNull()
    }
  })

  it('refuses a phone number that is not E.164', async () => {
    const { error } = await stack
      .client()
      .auth.verifyOtp({ phone: '+15555550123-invalid', token: '123456', type: 'sms' })
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Invalid phone number format (E.164 required)',
    })
  })

  it('refuses mixed or missing parameters with GoTrue messages', async () => {
    const email = 'someone@example.com'
    expect(await verify({ type: 'email', email, token: '1', token_hash: 'h' })).toMatchObject({
      status: 400,
      body: { msg: 'Verify requires either a token or a token hash' },
    })
    expect(await verify({ type: 'email', token: '123456' })).toMatchObject({
      status: 400,
      body: { msg: 'Only an email address or phone number should be provided on verify' },
    })
    expect(
      await verify({ type: 'email', email, phone: '15555550123', token: '123456' }),
    ).toMatchObject({ status: 400 })
    expect(await verify({ type: 'recovery', token_hash: 'abc', email })).toMatchObject({
      status: 400,
      body: { msg: 'Only the token_hash and type should be provided' },
    })
    expect(await verify({ type: 'email', email: 'xx:;x@x.x', token: '123456' })).toMatchObject({
      status: 422,
      body: { error_code: 'validation_failed', msg: 'Invalid email format' },
    })
  })
})
