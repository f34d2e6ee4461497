import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalbase } from '../src/index.ts'
import { copyFixture, startTestStack, type TestStack } from './helpers.ts'

describe('localbase process', () => {
  let stack: TestStack
  beforeAll(async () => {
    stack = await startTestStack()
  })
  afterAll(() => stack?.stop())

  it('answers /health once migrated', async () => {
    const res = await fetch(`${stack.url}/health`)
    expect(res.status).toBe(200)
    expect((await res.json()).status).toBe('ok')
  })

  it('records applied migrations as the Supabase CLI does', async () => {
    const { rows } = await stack.db.pg.query<{ version: string; name: string }>(
      'select version, name from supabase_migrations.schema_migrations',
    )
    expect(rows).toEqual([{ version: '20240101000000', name: 'notes' }])
  })

  it('provides the platform roles, with service_role bypassing RLS', async () => {
    const { rows } = await stack.db.pg.query<{ rolname: string; rolbypassrls: boolean }>(
      `select rolname, rolbypassrls from pg_roles where rolname in ('anon','authenticated','service_role','authenticator') order by rolname`,
    )
    expect(rows).toEqual([
      { rolname: 'anon', rolbypassrls: false },
      { rolname: 'authenticated', rolbypassrls: false },
      { rolname: 'authenticator', rolbypassrls: false },
      { rolname: 'service_role', rolbypassrls: true },
    ])
  })

  it('answers CORS preflight with the headers supabase-js needs', async () => {
    const res = await fetch(`${stack.url}/rest/v1/notes`, {
      method: 'OPTIONS',
      headers: { origin: 'http://example.test', 'access-control-request-method': 'GET' },
    })
    expect(res.status).toBe(204)
    const allowed = res.headers.get('access-control-allow-headers') ?? ''
    for (const header of ['apikey', 'authorization', 'prefer', 'accept-profile', 'x-client-info']) {
      expect(allowed).toContain(header)
    }
  })
})

describe('request limits', () => {
  let stack: TestStack
  beforeAll(async () => {
    stack = await startTestStack()
  })
  afterAll(() => stack?.stop())

  it('refuses an oversized REST or Auth body with 413 and keeps serving', async () => {
    const big = JSON.stringify({ title: 'x'.repeat(51 * 1024 * 1024) })
    const rest = await fetch(`${stack.url}/rest/v1/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    })
    expect(rest.status).toBe(413)
    expect((await rest.json()).message).toMatch(/larger than the 50 MB limit/)
    const auth = await fetch(`${stack.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(2 * 1024 * 1024) }),
    })
    expect(auth.status).toBe(413)
    expect((await fetch(`${stack.url}/health`)).status).toBe(200)
  })
})

describe('migrations and persistence', () => {
  it('keeps rows across a restart and leaves the database unchanged when a migration fails', async () => {
    const workdir = copyFixture('basic')
    const dataDir = join(workdir, 'data')
    const first = await startLocalbase({ workdir, port: 0, dataDir })
    await first.db.pg.query(`insert into personal.diary values (2, 'kept')`)
    await first.stop()

    writeFileSync(
      join(workdir, 'supabase/migrations/20240102000000_broken.sql'),
      `create table public.half_done (id int); select no_such_function();`,
    )
    await expect(startLocalbase({ workdir, port: 0, dataDir })).rejects.toThrow(
      /20240102000000_broken\.sql failed: function no_such_function\(\) does not exist/,
    )

    const again = await startLocalbase({
      workdir: copyFixture('basic'),
      port: 0,
      dataDir,
    })
    try {
      const diary = await again.db.pg.query('select entry from personal.diary order by id')
      // seed.sql ran once: a second run would have failed on the duplicate key.
      expect(diary.rows).toEqual([{ entry: 'seeded' }, { entry: 'first' }, { entry: 'kept' }])
      const half = await again.db.pg.query(`select to_regclass('public.half_done') as t`)
      expect(half.rows).toEqual([{ t: null }])
    } finally {
      await again.stop()
    }
    expect(existsSync(dataDir)).toBe(true)
  })

  it('refuses a non-loopback address while the default JWT secret is in use', async () => {
    await expect(
      startLocalbase({ workdir: copyFixture('basic'), host: '0.0.0.0', port: 0 }),
    ).rejects.toThrow(/default JWT secret/)
  })
})
