import { request } from 'node:http'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../../../packages/localbase/src/index.ts'
import { adminClient, type Stack, startStack } from '../stack.ts'

// Issue #14, finding 1: the dev mailbox was open. A page on any origin could ask for a
// password reset for any address, read the link from /auth/v1/mailbox/messages (it
// answered with Access-Control-Allow-Origin for every origin) and open it as that person.
// Now the mailbox sends no CORS headers, answers only to a loopback Host, and does not
// exist when SMTP is configured or the server listens beyond loopback.

const evil = 'https://evil.example'

let stack: Stack
let victim: string
beforeAll(async () => {
  stack = await startStack()
  victim = `victim.${Date.now()}@example.test`
  const created = await adminClient(stack).auth.admin.createUser({
    email: victim,
    password: 'victim password',
    email_confirm: true,
  })
  expect(created.error).toBeNull()
})
afterAll(() => stack?.stop())

const messagesUrl = (base: string, email: string) =>
  `${base}/auth/v1/mailbox/messages?email=${encodeURIComponent(email)}`

/** A GET with a Host header of our choosing, as a DNS-rebinding page's request arrives. */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('a page on another origin', () => {
  it('can ask for a reset mail but cannot read the mailbox', async () => {
    // The request a malicious page makes first; the auth API itself is meant for browsers.
    const recover = await fetch(`${stack.url}/auth/v1/recover`, {
      method: 'POST',
      headers: { origin: evil, apikey: DEFAULT_ANON_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ email: victim }),
    })
    expect(recover.status).toBe(200)
    expect(recover.headers.get('access-control-allow-origin')).toBe(evil)

    // The browser hands the page a response only if it carries Access-Control-Allow-Origin.
    for (const path of [messagesUrl(stack.url, victim), `${stack.url}/auth/v1/mailbox`]) {
      const res = await fetch(path, { headers: { origin: evil } })
      expect(res.status).toBe(200)
      expect(res.headers.get('access-control-allow-origin')).toBeNull()
      expect(res.headers.get('access-control-allow-credentials')).toBeNull()
      await res.body?.cancel()
    }
  })

  it('gets no preflight approval for the mailbox', async () => {
    const res = await fetch(messagesUrl(stack.url, victim), {
      method: 'OPTIONS',
      headers: {
        origin: evil,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'apikey',
      },
    })
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(res.headers.get('access-control-allow-methods')).toBeNull()
    await res.body?.cancel()
  })

  it('cannot read it through DNS rebinding (a Host that is not loopback)', async () => {
    for (const host of ['evil.example', `evil.example:${new URL(stack.url).port}`, '10.0.0.7']) {
      const res = await getWithHost(messagesUrl(stack.url, victim), host)
      expect(res.status).toBe(404)
      expect(res.body).not.toContain('/auth/v1/verify')
    }
    // The loopback names still reach it, as the developer's own browser does.
    const port = new URL(stack.url).port
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const res = await getWithHost(messagesUrl(stack.url, victim), host)
      expect(res.status).toBe(200)
      expect(JSON.parse(res.body)[0]).toMatchObject({ to: victim })
    }
  })
})

/** The answer the auth service gives a path it has no route for. */
async function unknownRoute(base: string) {
  const res = await fetch(`${base}/auth/v1/no-such-route`)
  return { status: res.status, body: await res.text() }
}

describe('beyond loopback', () => {
  const secret = 'a-test-only-jwt-secret-that-is-not-the-default-one'
  let wide: Stack
  beforeAll(async () => {
    const anonKey = await new SignJWT({ role: 'anon' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret))
    wide = await startStack({ HOST: '0.0.0.0', JWT_SECRET: secret, ANON_KEY: anonKey })
  })
  afterAll(() => wide?.stop())

  it('there is no mailbox: its routes answer as an unknown route does', async () => {
    const base = wide.url.replace('0.0.0.0', '127.0.0.1')
    const unknown = await unknownRoute(base)
    expect(unknown.status).toBe(404)
    for (const path of ['/auth/v1/mailbox', '/auth/v1/mailbox/messages?email=a@b.co']) {
      const res = await fetch(`${base}${path}`)
      expect({ status: res.status, body: await res.text() }).toEqual(unknown)
    }
  })
})

describe('with SMTP configured', () => {
  let smtp: Stack
  beforeAll(async () => {
    smtp = await startStack({
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: '2525',
      SMTP_ADMIN_EMAIL: 'noreply@example.test',
    })
  })
  afterAll(() => smtp?.stop())

  it('there is no mailbox, even on loopback', async () => {
    const unknown = await unknownRoute(smtp.url)
    for (const path of ['/auth/v1/mailbox', '/auth/v1/mailbox/messages?email=a@b.co']) {
      const res = await fetch(`${smtp.url}${path}`)
      expect({ status: res.status, body: await res.text() }).toEqual(unknown)
    }
  })
})
