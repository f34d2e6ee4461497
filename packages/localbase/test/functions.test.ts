import { spawnSync } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient, FunctionsHttpError } from '@supabase/supabase-js'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  DEFAULT_ANON_KEY,
  DEFAULT_JWT_SECRET,
  DEFAULT_PUBLISHABLE_KEY,
  DEFAULT_SERVICE_ROLE_KEY,
} from '../src/config/keys.ts'
import { type Localbase, startLocalbase } from '../src/index.ts'
import { copyFixture } from './helpers.ts'

// One localbase, and so one warm Deno process per function, for the whole file: Deno start-up
// is the slow part. The project is a temporary copy, so the file-edit test may change it.
let lb: Localbase
let workdir: string
let dataDir: string
const client = (key = DEFAULT_ANON_KEY) =>
  createClient(lb.url, key, { auth: { persistSession: false, autoRefreshToken: false } })
const call = (path: string, init: RequestInit = {}) => fetch(`${lb.url}/functions/v1/${path}`, init)
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

beforeAll(async () => {
  workdir = copyFixture('functions')
  dataDir = mkdtempSync(join(tmpdir(), 'localbase-test-'))
  lb = await startLocalbase({
    workdir,
    port: 0,
    dataDir,
    env: {
      ...process.env,
      PORT: '',
      HOST: '',
      DATA_DIR: '',
      FUNCTIONS_REQUEST_TIMEOUT_MS: '1500',
      LOCALBASE_TEST_VAR: 'from localbase env',
    },
  })
})

afterAll(async () => {
  await lb?.stop()
  rmSync(workdir, { recursive: true, force: true })
  rmSync(dataDir, { recursive: true, force: true })
})

describe('invoking a function', () => {
  it('hands it the method, the /<name> path, query, headers and body the client sent', async () => {
    const { data, error } = await client().functions.invoke('echo/sub/path?x=1', {
      body: { hello: 'world' },
      headers: { 'x-custom': 'yes' },
    })
    expect(error).toBeNull()
    expect(data).toMatchObject({
      method: 'POST',
      path: '/echo/sub/path',
      search: '?x=1',
      url: `${lb.url}/echo/sub/path?x=1`,
    })
    expect(data.headers).toMatchObject({
      'x-custom': 'yes',
      apikey: DEFAULT_ANON_KEY,
      authorization: `Bearer ${DEFAULT_ANON_KEY}`,
      'content-type': 'application/json',
    })
    expect(data.headers['x-client-info']).toMatch(/^supabase-js/)
    expect(JSON.parse(data.body)).toEqual({ hello: 'world' })
  })

  it('passes other methods and raw bodies through unchanged', async () => {
    const res = await call('echo', {
      method: 'PUT',
      headers: { ...bearer(DEFAULT_ANON_KEY), 'content-type': 'text/plain' },
      body: 'plain bytes',
    })
    expect(res.status).toBe(200)
    const data = await res.json()
    expect(data).toMatchObject({ method: 'PUT', path: '/echo', body: 'plain bytes' })
    expect(data.headers['content-type']).toBe('text/plain')
  })

  it('keeps the process warm between calls', async () => {
    const first = await client().functions.invoke('echo', { body: {} })
    const second = await client().functions.invoke('echo', { body: {} })
    expect(second.data.calls).toBe(first.data.calls + 1)
  })

  it('sends small calls on one kept-alive connection, and large bodies whole on their own', async () => {
    const small = () =>
      call('echo', { method: 'POST', headers: bearer(DEFAULT_ANON_KEY), body: 'x' })
    const first = await (await small()).json()
    const second = await (await small()).json()
    expect(second.remotePort).toBe(first.remotePort)
    expect(second.body).toBe('x')
    // Over the 64 KB kept in memory: streamed through, byte for byte.
    const large = randomBytes(100 * 1024).toString('base64')
    const res = await call('echo', {
      method: 'POST',
      headers: bearer(DEFAULT_ANON_KEY),
      body: large,
    })
    const echoed = await res.json()
    expect(echoed.body).toBe(large)
    expect(echoed.remotePort).not.toBe(first.remotePort)
  })

  it('streams text/event-stream: the first event arrives before the function sends the last', async () => {
    const { data, error } = await client().functions.invoke('stream', { method: 'GET' })
    expect(error).toBeNull()
    const response = data as Response
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    // The function holds the last event back until /stream/release is called.
    expect((await reader.read()).value).toBe('data: first\n\n')
    expect(await (await call('stream/release')).text()).toBe('released')
    let rest = ''
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += chunk.value
    }
    expect(rest).toBe('data: last\n\n')
  })

  it('boots one process for concurrent first calls', async () => {
    const pids = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const res = await call('pid', { headers: bearer(DEFAULT_ANON_KEY) })
        return (await res.json()).pid
      }),
    )
    expect(new Set(pids).size).toBe(1)
  })

  it('relays WebSocket functions (Deno.upgradeWebSocket)', async () => {
    const socket = new WebSocket(`${lb.url.replace('http', 'ws')}/functions/v1/socket/room`)
    await new Promise((resolve, reject) => {
      socket.onopen = resolve
      socket.onerror = reject
    })
    const reply = new Promise<string>((resolve) => {
      socket.onmessage = (event) => resolve(String(event.data))
    })
    socket.send('hi')
    expect(await reply).toBe('/socket/room: HI')
    socket.close()
  })

  it('passes OPTIONS preflight to the function, without verify_jwt', async () => {
    const res = await call('open', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-headers')).toBe(
      'authorization, x-client-info, apikey, content-type',
    )
    expect(await res.text()).toBe('ok')
  })
})

describe('verify_jwt', () => {
  it('lets the legacy anon key, the service key and user JWTs through', async () => {
    const userJwt = await new SignJWT({ role: 'authenticated', sub: randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(DEFAULT_JWT_SECRET))
    for (const token of [DEFAULT_ANON_KEY, DEFAULT_SERVICE_ROLE_KEY, userJwt]) {
      const res = await call('echo', { headers: bearer(token) })
      expect(res.status).toBe(200)
    }
  })

  it('rejects a request without Authorization', async () => {
    const res = await call('echo', { headers: { apikey: DEFAULT_ANON_KEY } })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ code: 401, message: 'Missing authorization header' })
  })

  it('rejects a token signed with another secret', async () => {
    const [header, payload] = DEFAULT_ANON_KEY.split('.')
    const res = await call('echo', { headers: bearer(`${header}.${payload}.bad-signature`) })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ code: 401, message: 'Invalid JWT' })
  })

  it('rejects the publishable key, which supabase-js no longer sends as a bearer', async () => {
    // supabase-js 2.119 puts an sb_ key only in `apikey` for functions, so verify_jwt sees no token.
    const { data, error } = await client(DEFAULT_PUBLISHABLE_KEY).functions.invoke('echo')
    expect(data).toBeNull()
    expect(error).toBeInstanceOf(FunctionsHttpError)
    const response = (error as FunctionsHttpError).context as Response
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ code: 401, message: 'Missing authorization header' })
    // Sent as a bearer anyway (older clients, hand-written fetch), it is not a JWT.
    const res = await call('echo', { headers: bearer(DEFAULT_PUBLISHABLE_KEY) })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({
      code: 401,
      message: 'Invalid Token or Protected Header formatting',
    })
  })

  it('guards WebSocket upgrades too', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${lb.url}/functions/v1/echo`, {
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': randomBytes(16).toString('base64'),
        },
      })
      req.on('response', (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('upgrade', () => reject(new Error('the upgrade went through')))
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(401)
  })

  it('is skipped for functions with verify_jwt = false', async () => {
    const { data, error } = await client(DEFAULT_PUBLISHABLE_KEY).functions.invoke('open')
    expect(error).toBeNull()
    expect(data).toEqual({ open: true, authorization: null })
    const res = await call('open', { headers: bearer('not-a-jwt') })
    expect(await res.json()).toEqual({ open: true, authorization: 'Bearer not-a-jwt' })
  })
})

describe('runtime', () => {
  it('exposes the platform secrets, supabase/functions/.env and localbase env', async () => {
    const { data, error } = await client().functions.invoke('env')
    expect(error).toBeNull()
    expect(data).toEqual({
      // .env tries to override SUPABASE_URL; the platform value wins, as in the Supabase CLI.
      SUPABASE_URL: lb.url,
      SUPABASE_ANON_KEY: DEFAULT_ANON_KEY,
      SUPABASE_SERVICE_ROLE_KEY: DEFAULT_SERVICE_ROLE_KEY,
      SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: DEFAULT_PUBLISHABLE_KEY }),
      SUPABASE_SECRET_KEYS: JSON.stringify({ default: lb.config.keys.secretKey }),
      GREETING: 'hello from .env',
      LOCALBASE_TEST_VAR: 'from localbase env',
    })
  })

  it('imports npm: packages (downloaded from the npm registry into the Deno cache)', async () => {
    const { data, error } = await client().functions.invoke('npm-import')
    expect(error).toBeNull()
    expect(data).toEqual({ twoMinutes: 120_000 })
  }, 120_000)

  it('runs the old deno.land std serve and the edge-runtime.d.ts import, with waitUntil', async () => {
    const { data, error } = await client().functions.invoke('legacy/x', { method: 'GET' })
    expect(error).toBeNull()
    expect(data).toBe('legacy /legacy/x')
    await expect
      .poll(async () => (await client().functions.invoke('legacy/background')).data)
      .toEqual({ background: 'done' })
  })

  it('maps jsr:@supabase/supabase-js to npm, and the client reaches localbase', async () => {
    const { data, error } = await client().functions.invoke('client')
    expect(error).toBeNull()
    expect(data.error).toBeNull()
    expect(data.pid).toEqual(expect.any(Number))
  }, 120_000)

  it("resolves bare specifiers through the function's own deno.json imports", async () => {
    const { data } = await client().functions.invoke('mapped')
    expect(data).toBe('hello from the deno.json import map')
  })
})

describe('errors', () => {
  it('answers an unknown function with 404', async () => {
    for (const name of ['missing', '_shared', '..%2Fecho', '%E0']) {
      const res = await call(name, { headers: bearer(DEFAULT_ANON_KEY) })
      expect(res.status).toBe(404)
      expect(res.headers.get('sb-error-code')).toBe('NOT_FOUND')
      expect(await res.json()).toEqual({
        code: 'NOT_FOUND',
        message: 'Requested function was not found',
      })
    }
  })

  it('answers methods hosted does not support with 405', async () => {
    const res = await call('open', { method: 'HEAD' })
    expect(res.status).toBe(405)
    expect(res.headers.get('sb-error-code')).toBe('METHOD_NOT_ALLOWED')
  })

  it('gives 500 when the handler throws, and keeps serving', async () => {
    const before = (await (await call('faulty')).json()).calls
    const res = await call('faulty?mode=throw')
    expect(res.status).toBe(500)
    expect(res.headers.get('sb-error-code')).toBe('WORKER_ERROR')
    expect(await res.json()).toEqual({
      code: 'WORKER_ERROR',
      message: 'Function exited due to an error (please check logs)',
    })
    expect(await (await call('faulty')).json()).toEqual({ ok: true, calls: before + 1 })
  })

  it('gives 500 when the process exits, then starts a fresh one', async () => {
    expect((await call('faulty')).status).toBe(200)
    const res = await call('faulty?mode=exit')
    expect(res.status).toBe(500)
    expect((await res.json()).code).toBe('WORKER_ERROR')
    expect(await (await call('faulty')).json()).toEqual({ ok: true, calls: 1 })
  })

  it('gives 504 when no response starts within the time limit, then starts afresh', async () => {
    const started = Date.now()
    const res = await call('faulty?mode=hang')
    expect(res.status).toBe(504)
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400)
    expect(await res.json()).toMatchObject({ code: 'IDLE_TIMEOUT' })
    expect(await (await call('faulty')).json()).toEqual({ ok: true, calls: 1 })
  })

  it('tells the function when the caller gives up, and keeps the process', async () => {
    const before = (await (await call('faulty')).json()).calls
    const { error } = await client().functions.invoke('faulty?mode=hang', { timeout: 300 })
    expect(error?.name).toBe('FunctionsFetchError')
    await expect
      .poll(async () => (await (await call('faulty?mode=aborted')).json()).aborted)
      .toBe(1)
    expect(await (await call('faulty')).json()).toEqual({ ok: true, calls: before + 1 })
  })

  it('gives 503 when the function fails to load', async () => {
    const { error } = await client().functions.invoke('broken')
    expect(error).toBeInstanceOf(FunctionsHttpError)
    const response = (error as FunctionsHttpError).context as Response
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({
      code: 'BOOT_ERROR',
      message: 'Worker failed to boot (please check logs)',
    })
  })
})

describe('development', () => {
  it('picks up an edited function without restarting localbase', async () => {
    expect(await (await call('open')).json()).toMatchObject({ open: true })
    const file = join(workdir, 'supabase/functions/open/index.ts')
    writeFileSync(file, readFileSync(file, 'utf8').replace('open: true', "open: 'edited'"))
    await expect
      .poll(async () => (await (await call('open')).json()).open, { timeout: 10_000 })
      .toBe('edited')
  })

  it('type-checks every function with deno check, failing on a type error', () => {
    const script = join(import.meta.dirname, '../src/functions/check.ts')
    const check = (dir: string) =>
      spawnSync(process.execPath, [script, '--workdir', dir], { encoding: 'utf8' })
    const clean = check(join(import.meta.dirname, 'fixtures/functions'))
    expect(clean.stderr).not.toContain('ERROR')
    expect(clean.status).toBe(0)
    writeFileSync(
      join(workdir, 'supabase/functions/open/index.ts'),
      "const count: number = 'one'\nDeno.serve(() => new Response(String(count)))\n",
    )
    const broken = check(workdir)
    expect(broken.status).toBe(1)
    expect(broken.stderr).toContain("Type 'string' is not assignable to type 'number'")
  }, 60_000)

  it('ends every Deno process when localbase stops', async () => {
    const { data } = await client().functions.invoke('echo')
    expect(() => process.kill(data.pid, 0)).not.toThrow()
    await lb.stop()
    expect(() => process.kill(data.pid, 0)).toThrow(/ESRCH/)
  })
})
