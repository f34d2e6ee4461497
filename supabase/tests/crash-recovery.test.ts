import { type ChildProcess, spawn } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, describe, expect, it } from 'vitest'
import { sharedData } from '../../packages/core/src/testing/shared-data.ts'
import { DOCUMENTS_BUCKET } from '../../packages/core/src/ingest/storage-path.ts'
import {
  DEFAULT_ANON_KEY,
  DEFAULT_SERVICE_ROLE_KEY,
  relaxedAuthLimits,
} from '../../packages/localbase/src/index.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const cli = join(root, 'packages/localbase/src/cli.ts')
const importer = join(root, 'scripts/import.ts')
const dataDir = mkdtempSync(join(tmpdir(), 'sourcebook-crash-db-'))
const folder = mkdtempSync(join(tmpdir(), 'sourcebook-crash-files-'))
// Small to mid-sized filings: long enough to be cut mid-indexing, short enough to re-run.
const files = ['AMCOR_2022_8K_dated-2022-07-01.pdf', 'NETFLIX_2015_10K.pdf', 'AMAZON_2017_10K.pdf']
for (const file of files)
  copyFileSync(new URL(`financebench-pdfs/${file}`, sharedData), join(folder, file))
const children: ChildProcess[] = []
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  rmSync(dataDir, { recursive: true, force: true })
  rmSync(folder, { recursive: true, force: true })
})

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** localbase as its own process on the test's data dir, as `npm start` runs it. */
async function startServer(port: number, env: Record<string, string> = {}) {
  const child = spawn(
    process.execPath,
    [cli, 'start', '--workdir', root, '--port', String(port), '--data-dir', dataDir],
    {
      env: { ...process.env, PORT: '', HOST: '', DATA_DIR: '', ...relaxedAuthLimits, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  children.push(child)
  let output = ''
  child.stdout!.on('data', (data) => (output += data))
  child.stderr!.on('data', (data) => (output += data))
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`localbase exited: ${output}`)
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return { child, output: () => output }
    if (Date.now() > deadline) throw new Error(`localbase did not start: ${output}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

function runImporter(url: string, workspaceId: string, email: string, password: string) {
  const child = spawn(
    process.execPath,
    [importer, '--url', url, '--key', DEFAULT_ANON_KEY, '--workspace', workspaceId, folder],
    { env: { ...process.env, SOURCEBOOK_EMAIL: email, SOURCEBOOK_PASSWORD: password } },
  )
  children.push(child)
  let stdout = ''
  child.stdout.on('data', (data) => (stdout += data))
  child.stderr.on('data', (data) => (stdout += data))
  const done = new Promise<{ code: number | null; stdout: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout })),
  )
  return { child, done }
}

/** A processing document with chunks already written: the import is mid-indexing. */
async function midIndexing(admin: SupabaseClient): Promise<boolean> {
  const { data } = await admin.from('documents').select('id').eq('status', 'processing')
  if (!data?.length) return false
  const chunks = await admin
    .from('chunks')
    .select('id', { count: 'exact', head: true })
    .in(
      'document_id',
      data.map((d: { id: string }) => d.id),
    )
  return (chunks.count ?? 0) > 0
}

const admin = (url: string) =>
  createClient(url, DEFAULT_SERVICE_ROLE_KEY, { auth: { persistSession: false } })

describe('crash recovery', () => {
  it('after a SIGKILL mid-import, a restart and a second run leave every file ready once', async () => {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    let server = await startServer(port)
    const email = `crash.${Date.now()}@example.test`
    const password = 'crash-password-1'
    const created = await admin(url).auth.admin.createUser({ email, password, email_confirm: true })
    expect(created.error).toBeNull()
    const user = createClient(url, DEFAULT_ANON_KEY, { auth: { persistSession: false } })
    expect((await user.auth.signInWithPassword({ email, password })).error).toBeNull()
    const workspace = await user.from('workspaces').insert({ name: 'Crash' }).select('id').single()
    expect(workspace.error).toBeNull()
    const workspaceId = (workspace.data as { id: string }).id

    const first = runImporter(url, workspaceId, email, password)
    const deadline = Date.now() + 60_000
    let caught = await midIndexing(admin(url))
    while (!caught && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25))
      caught = await midIndexing(admin(url))
    }
    expect(caught).toBe(true)
    server.child.kill('SIGKILL')
    await new Promise((resolve) => server.child.once('close', resolve))
    const cut = await first.done
    expect(cut.code).toBe(1)

    // Back on the same data dir; the heartbeats stopped at the kill, so a short threshold
    // lets the start-up pass reap them at once rather than after two minutes.
    server = await startServer(port, { INTERRUPTED_AFTER_SECONDS: '1' })
    expect(server.output()).toMatch(/\d+ interrupted import\(s\) marked failed/)
    const db = admin(url)
    const { data: reaped } = await db
      .from('documents')
      .select('id')
      .eq('status', 'failed')
      .returns<{ id: string }[]>()
    expect(reaped!.length).toBeGreaterThan(0)
    const leftover = await db
      .from('chunks')
      .select('id', { count: 'exact', head: true })
      .in(
        'document_id',
        reaped!.map((d) => d.id),
      )
    expect(leftover.count).toBe(0)

    const second = await runImporter(url, workspaceId, email, password).done
    expect(second.stdout).toMatch(/failures: {3}0/)
    expect(second.code).toBe(0)

    const { data: documents } = await db
      .from('documents')
      .select('id, file_name, status, chunk_count, storage_path')
      .eq('workspace_id', workspaceId)
      .order('file_name')
      .returns<
        {
          id: string
          file_name: string
          status: string
          chunk_count: number
          storage_path: string
        }[]
      >()
    expect(documents!.map((d) => [d.file_name, d.status])).toEqual(
      [...files].sort().map((file) => [file, 'ready']),
    )
    // The interrupted ones were resumed under their own ids, not imported beside them.
    for (const { id } of reaped!) expect(documents!.map((d) => d.id)).toContain(id)
    // No orphans: every chunk and text belongs to a ready document, the statistics agree.
    const chunks = await db.from('chunks').select('id', { count: 'exact', head: true })
    const expected = documents!.reduce((sum, d) => sum + d.chunk_count, 0)
    expect(chunks.count).toBe(expected)
    const texts = await db.from('document_texts').select('document_id')
    expect(texts.data!.map((t: { document_id: string }) => t.document_id).sort()).toEqual(
      documents!.map((d) => d.id).sort(),
    )
    const stats = await db
      .from('workspace_chunk_stats')
      .select('chunk_count')
      .eq('workspace_id', workspaceId)
      .single()
    expect(Number((stats.data as { chunk_count: number }).chunk_count)).toBe(expected)
    // And one stored original per document, at its own path.
    const folders = await db.storage.from(DOCUMENTS_BUCKET).list(workspaceId, { limit: 1000 })
    expect(folders.data!.map((f) => f.name).sort()).toEqual(documents!.map((d) => d.id).sort())
    for (const document of documents!) {
      const stored = await db.storage.from(DOCUMENTS_BUCKET).list(`${workspaceId}/${document.id}`)
      expect(stored.data!.map((o) => `${workspaceId}/${document.id}/${o.name}`)).toEqual([
        document.storage_path,
      ])
    }
    expect(readdirSync(folder)).toHaveLength(files.length)
    server.child.kill('SIGTERM')
    await new Promise((resolve) => server.child.once('close', resolve))
  }, 120_000)
})
