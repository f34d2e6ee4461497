import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../src/config/keys.ts'
import { copyFixture, startTestStack, type TestStack } from './helpers.ts'

const get = (stack: TestStack, path: string) => fetch(`${stack.url}${path}`)

describe('/health', () => {
  let stack: TestStack
  beforeAll(async () => {
    stack = await startTestStack(copyFixture('functions'))
  })
  afterAll(() => stack?.stop())

  it('is ok, live and ready on a healthy server, and keeps Supabase’s own checks', async () => {
    const res = await get(stack, '/health')
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const body = await res.json()
    expect(body).toMatchObject({
      status: 'ok',
      degraded: [],
      checks: { database: { ok: true }, disk: { ok: true } },
    })
    expect(body.services).toEqual(['rest', 'auth', 'storage', 'realtime', 'functions'])
    expect(body.checks.disk.free_bytes).toBeGreaterThan(0)
    expect((await get(stack, '/health/live')).status).toBe(200)
    expect(await (await get(stack, '/health/ready')).json()).toMatchObject({ status: 'ok' })
    const auth = await fetch(`${stack.url}/auth/v1/health`, {
      headers: { apikey: DEFAULT_ANON_KEY },
    })
    expect(auth.status).toBe(200)
    expect((await auth.json()).name).toBe('GoTrue')
  })

  it('reports a function that fails to boot as degraded: 200, or 503 when strict', async () => {
    const call = await fetch(`${stack.url}/functions/v1/broken`, {
      headers: { authorization: `Bearer ${DEFAULT_ANON_KEY}` },
    })
    expect(call.status).toBe(503)
    const res = await get(stack, '/health')
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.status).toBe('degraded')
    expect(body.degraded).toEqual([expect.stringMatching(/^function broken fails to boot/)])
    expect((await get(stack, '/health?strict=true')).status).toBe(503)
    // Still ready: the rest of the server serves.
    expect((await get(stack, '/health/ready')).status).toBe(200)
  })

  it('is unavailable (503) while the database does not answer, still live, then ready again', async () => {
    // A transaction that holds PGlite's one connection, as a stuck statement would.
    let release = () => {}
    const held = stack.db.pg.transaction(() => new Promise<void>((resolve) => (release = resolve)))
    try {
      const [res, ready, live] = await Promise.all([
        get(stack, '/health'),
        get(stack, '/health/ready'),
        get(stack, '/health/live'),
      ])
      expect(res.status).toBe(503)
      expect(await res.json()).toMatchObject({
        status: 'unavailable',
        checks: { database: { ok: false, error: expect.stringMatching(/no answer within/) } },
      })
      expect(ready.status).toBe(503)
      expect(live.status).toBe(200)
    } finally {
      release()
      await held
    }
    expect((await get(stack, '/health/ready')).status).toBe(200)
  }, 30_000)
})

describe('/health with a nearly full disk', () => {
  let stack: TestStack
  beforeAll(async () => {
    // More free space asked for than any disk has: the data dir's disk counts as full.
    stack = await startTestStack('basic', {
      env: { HEALTH_MIN_FREE_DISK_MB: String(1024 ** 4) },
    })
  })
  afterAll(() => stack?.stop())

  it('says so, and stays ready', async () => {
    const res = await get(stack, '/health')
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.status).toBe('degraded')
    expect(body.checks.disk.ok).toBe(false)
    expect(body.degraded).toEqual([expect.stringMatching(/^disk nearly full: \d+ MB free in /)])
    expect((await get(stack, '/health?strict=true')).status).toBe(503)
    expect((await get(stack, '/health/ready')).status).toBe(200)
  })
})
