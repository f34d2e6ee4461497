import { execFile, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@supabase/supabase-js'
import { afterAll, describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { downloadBackup } from '../../packages/localbase/src/backup/download-backup.ts'
import { exportForHosted } from '../../packages/localbase/src/backup/export-hosted.ts'
import { restoreBackup } from '../../packages/localbase/src/backup/restore.ts'
import {
  DEFAULT_ANON_KEY,
  DEFAULT_SERVICE_ROLE_KEY,
  type Localbase,
  relaxedAuthLimits,
  startLocalbase,
} from '../../packages/localbase/src/index.ts'
import { startIngestWorld, textFile } from './ingest-helpers.ts'
import { startStack } from './stack.ts'

const { stack, workspaceId, editor } = await startIngestWorld()
const scratch = mkdtempSync(join(tmpdir(), 'sourcebook-backup-test-'))
const started: Localbase[] = []
afterAll(async () => {
  for (const lb of started) await lb.stop()
  rmSync(scratch, { recursive: true, force: true })
})

async function importDocument(label: string): Promise<string> {
  const result = await ingestFile(editor(), {
    workspaceId,
    bytes: textFile(`The ${label} ledger records harbour dues and tide tables`, 60),
    fileName: `${label}.txt`,
  })
  if (result.status !== 'ready') throw new Error(`import ${label}: ${result.status}`)
  return result.documentId
}

/** Count and checksum of every table of the app's schemas. */
async function tableSums(lb: Localbase): Promise<Record<string, string>> {
  const { rows: tables } = await lb.db.pg.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables
     where schemaname in ('public', 'auth', 'storage') order by 1`,
  )
  const sums: Record<string, string> = {}
  for (const { name } of tables) {
    const { rows } = await lb.db.pg.query<{ n: number; sum: string }>(
      `select count(*)::int as n, coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as sum
       from ${name} t`,
    )
    sums[name] = `${rows[0]!.n} ${rows[0]!.sum}`
  }
  return sums
}

/** sha256 of every object's bytes on disk, by bucket and name. */
async function objectHashes(lb: Localbase): Promise<Record<string, string>> {
  const { rows } = await lb.db.pg.query<{ key: string; version: string }>(
    `select bucket_id || '/' || name as key, version from storage.objects order by 1`,
  )
  return Object.fromEntries(
    rows.map(({ key, version }) => [
      key,
      createHash('sha256')
        .update(readFileSync(join(lb.config.dataDir, 'storage', 'objects', version)))
        .digest('hex'),
    ]),
  )
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function backupAndRestore(name: string): Promise<{ lb: Localbase; bytes: number }> {
  const file = join(scratch, `${name}.tar`)
  const bytes = await downloadBackup(stack.url, DEFAULT_SERVICE_ROLE_KEY, file)
  const dataDir = join(scratch, name)
  await restoreBackup(file, dataDir)
  const lb = await startLocalbase({
    workdir: stack.config.workdir,
    port: 0,
    dataDir,
    env: { ...process.env, PORT: '', HOST: '', DATA_DIR: '', ...relaxedAuthLimits },
  })
  started.push(lb)
  return { lb, bytes }
}

describe('backup and restore', () => {
  it('refuses a backup without the service-role key', async () => {
    const res = await fetch(`${stack.url}/admin/v1/backup`, {
      method: 'POST',
      headers: { apikey: DEFAULT_ANON_KEY, authorization: `Bearer ${DEFAULT_ANON_KEY}` },
    })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ message: expect.stringContaining('service-role') })
    await expect(
      downloadBackup(stack.url, DEFAULT_ANON_KEY, join(scratch, 'no.tar')),
    ).rejects.toThrow(/401/)
  })

  it('backs up during an import: the restored server has a consistent moment of it', async () => {
    const before = [await importDocument('first'), await importDocument('second')]
    let stop = false
    let imported = 0
    const writer = (async () => {
      while (!stop) {
        await importDocument(`during-${imported}`)
        imported++
      }
    })()
    let lb: Localbase
    try {
      while (imported < 1) await new Promise((resolve) => setTimeout(resolve, 50))
      lb = (await backupAndRestore('during')).lb
    } finally {
      // Whatever happens, the later tests compare a server no one writes to.
      stop = true
      await writer
    }

    // Every object a row names is there, byte for byte what the source has for it.
    const hashes = await objectHashes(lb)
    const source = await objectHashes(stack)
    for (const [key, hash] of Object.entries(hashes)) expect(source[key], key).toBe(hash)
    // Documents ready at the moment of the backup are whole: every chunk, its object.
    const { rows: documents } = await lb.db.pg.query<{ id: string; chunks: number; n: number }>(
      `select d.id, d.chunk_count as chunks, (select count(*)::int from public.chunks c
         where c.document_id = d.id) as n
       from public.documents d where d.status = 'ready'`,
    )
    expect(documents.map((d) => d.id)).toEqual(expect.arrayContaining(before))
    for (const d of documents) expect(d.n).toBe(d.chunks)
    expect(documents.length).toBeGreaterThanOrEqual(3)
    expect(documents.length).toBeLessThanOrEqual(2 + imported)
    expect(Object.keys(hashes).length).toBeGreaterThanOrEqual(documents.length)
    // And it serves them: supabase-js against the restored server.
    const admin = createClient(lb.url, DEFAULT_SERVICE_ROLE_KEY, {
      auth: { persistSession: false, autoRefreshToken: false },
    })
    const listed = await admin.from('documents').select('id').eq('status', 'ready')
    expect(listed.error).toBeNull()
    expect(listed.data!.length).toBe(documents.length)
  }, 120_000)

  it('restores every row and every object of the moment it was taken', async () => {
    const { lb, bytes } = await backupAndRestore('quiet')
    expect(bytes).toBeGreaterThan(0)
    expect(await tableSums(lb)).toEqual(await tableSums(stack))
    const hashes = await objectHashes(lb)
    expect(Object.keys(hashes).length).toBeGreaterThanOrEqual(3)
    expect(hashes).toEqual(await objectHashes(stack))
  }, 60_000)

  // psql comes with Postgres' client tools (CI installs them with Postgres).
  it.skipIf(spawnSync('psql', ['--version']).status !== 0)(
    'exports SQL that psql loads into a project made from the same migrations, and the files by bucket',
    async () => {
      const out = join(scratch, 'hosted')
      const done = await exportForHosted(join(scratch, 'quiet.tar'), out)
      expect(done.rows).toBeGreaterThan(0)
      // A fresh project from the same migrations stands in for `supabase db push`.
      const target = await startStack()
      const port = await freePort()
      let socket: { stop(): Promise<void> } | null = null
      try {
        // Its seed (the demo user) would collide with the same user arriving from the export.
        await target.db.pg.exec('delete from auth.users')
        socket = await target.db.engine.pglite!.serveSocket(port, '127.0.0.1')
        // Asynchronously, as a client of this process's server would.
        const psql = await promisify(execFile)(
          'psql',
          [
            '-h',
            '127.0.0.1',
            '-p',
            String(port),
            '-U',
            'postgres',
            '-d',
            'postgres',
            '-v',
            'ON_ERROR_STOP=1',
            '-q',
            '-f',
            join(out, 'data.sql'),
          ],
          {
            encoding: 'utf8',
            timeout: 60_000,
            env: { ...process.env, PGPASSWORD: 'postgres', PGSSLMODE: 'disable' },
          },
        )
        expect(psql.stderr).toBe('')
        await socket.stop()
        const moved = Object.entries(await tableSums(target)).filter(
          ([name]) =>
            name.startsWith('public.') || name === 'auth.users' || name === 'auth.identities',
        )
        const source = await tableSums(stack)
        expect(moved.length).toBeGreaterThan(10)
        for (const [name, sum] of moved) expect(sum, name).toBe(source[name])
      } finally {
        await socket?.stop().catch(() => {})
        await target.stop()
      }
      const hashes = await objectHashes(stack)
      for (const [key, hash] of Object.entries(hashes))
        expect(
          createHash('sha256')
            .update(readFileSync(join(out, 'storage', key)))
            .digest('hex'),
        ).toBe(hash)
      expect(done.objects).toBe(Object.keys(hashes).length)
    },
    120_000,
  )

  it('refuses to restore over a data dir in use, and a file that is no backup', async () => {
    await expect(restoreBackup(join(scratch, 'quiet.tar'), stack.config.dataDir)).rejects.toThrow(
      /not empty/,
    )
    const junk = join(scratch, 'junk.tar')
    writeFileSync(junk, Buffer.alloc(1024))
    await expect(restoreBackup(junk, join(scratch, 'junk'))).rejects.toThrow(
      /not a localbase backup/,
    )
  })
})
