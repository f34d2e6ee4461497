import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@supabase/supabase-js'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_SERVICE_ROLE_KEY } from '../src/config/keys.ts'
import { copyFixture } from './helpers.ts'
import { scratchDatabase, testDatabaseUrl } from './scratch-database.ts'

// Only with LOCALBASE_TEST_DATABASE_URL: localbase on a real Postgres, checked from outside.
const cli = new URL('../src/cli.ts', import.meta.url).pathname

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

function start(args: string[]): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, [cli, 'start', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: '' },
  })
  let output = ''
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk
      if (output.includes('localbase is running')) resolve()
    })
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)))
  })
  return { child, ready }
}

describe.skipIf(!testDatabaseUrl)('localbase on a Postgres server (--db-url)', () => {
  // Made in beforeAll: a skipped suite's body still runs, and would leave them behind.
  let workdir: string
  let dataDir: string
  let database: Awaited<ReturnType<typeof scratchDatabase>>
  let direct: pg.Client
  let port: number
  let proc: ReturnType<typeof start>

  const launch = async () => {
    proc = start([
      '--workdir',
      workdir,
      '--port',
      String(port),
      '--data-dir',
      dataDir,
      '--db-url',
      database!.url,
    ])
    await proc.ready
  }
  const admin = () =>
    createClient(`http://127.0.0.1:${port}`, DEFAULT_SERVICE_ROLE_KEY, {
      auth: { persistSession: false, autoRefreshToken: false },
    })

  beforeAll(async () => {
    workdir = copyFixture('basic')
    dataDir = mkdtempSync(join(tmpdir(), 'localbase-pg-'))
    database = await scratchDatabase(dataDir)
    port = await freePort()
    await launch()
    direct = new pg.Client({ connectionString: database!.url })
    await direct.connect()
  })
  afterAll(async () => {
    proc.child.kill('SIGKILL')
    await direct?.end()
    await database?.drop()
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(workdir, { recursive: true, force: true })
  })

  it('applies the platform SQL, migrations and seed to that database, once', async () => {
    const { rows } = await direct.query<{ version: string }>(
      'select version from supabase_migrations.schema_migrations',
    )
    expect(rows.map((r) => r.version)).toEqual(['20240101000000'])
    const roles = await direct.query<{ rolname: string }>(
      `select rolname from pg_roles where rolname in ('anon', 'authenticated', 'service_role', 'authenticator') order by 1`,
    )
    expect(roles.rows.map((r) => r.rolname)).toEqual([
      'anon',
      'authenticated',
      'authenticator',
      'service_role',
    ])
    const diary = await direct.query('select entry from personal.diary order by id')
    expect(diary.rows).toEqual([{ entry: 'seeded' }, { entry: 'first' }])
  })

  it('writes through the API land in the external database and survive a kill -9', async () => {
    const { data: user, error } = await admin().auth.admin.createUser({
      email: `pg.${Date.now()}@example.test`,
      password: 'a long password 1',
      email_confirm: true,
    })
    expect(error).toBeNull()
    const insert = await admin()
      .from('notes')
      .insert({ owner_id: user.user!.id, title: 'kept on the server' })
      .select('id')
      .single()
    expect(insert.error).toBeNull()

    const seen = await direct.query('select title, owner_id from public.notes where id = $1', [
      insert.data!.id,
    ])
    expect(seen.rows).toEqual([{ title: 'kept on the server', owner_id: user.user!.id }])

    proc.child.kill('SIGKILL')
    await new Promise((resolve) => proc.child.once('exit', resolve))
    await launch()

    const after = await admin().from('notes').select('title').eq('id', insert.data!.id)
    expect(after.data).toEqual([{ title: 'kept on the server' }])
    const users = await direct.query('select email from auth.users where id = $1', [user.user!.id])
    expect(users.rows).toHaveLength(1)
    // A restart applies nothing twice.
    const migrations = await direct.query(
      'select count(*)::int as n from supabase_migrations.schema_migrations',
    )
    expect(migrations.rows).toEqual([{ n: 1 }])
  })

  it('refuses a backup of the data dir, which is on the server: pg_dump backs it up', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/admin/v1/backup`, {
      method: 'POST',
      headers: { apikey: DEFAULT_SERVICE_ROLE_KEY },
    })
    expect(response.status).toBe(501)
    expect(await response.json()).toEqual({
      message: 'This localbase keeps its data in Postgres: back it up with pg_dump',
    })
  })

  it('refuses --db-port, which only PGlite can serve', async () => {
    const other = start([
      '--workdir',
      workdir,
      '--port',
      String(await freePort()),
      '--data-dir',
      dataDir,
      '--db-url',
      database!.url,
      '--db-port',
      String(await freePort()),
    ])
    await expect(other.ready).rejects.toThrow(/--db-port exposes PGlite/)
  })
})
