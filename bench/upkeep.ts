// What upkeep reclaims: imports ../shared/data/financebench-pdfs into a fresh localbase
// (in this process, to read sizes as the database owner), deletes every document, vacuums,
// and imports the set again, printing table and index sizes (pg_total_relation_size, per
// table and per index) at each step and the longest pause a vacuum caused; then backs the
// server up (`localbase backup`'s endpoint), restores it, and prints the sizes and times.
// Run: node bench/upkeep.ts [--files 12]   (last line: JSON)
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createClient } from '@supabase/supabase-js'
import { downloadBackup } from '../packages/localbase/src/backup/download-backup.ts'
import { restoreBackup } from '../packages/localbase/src/backup/restore.ts'
import {
  DEFAULT_PUBLISHABLE_KEY,
  DEFAULT_SERVICE_ROLE_KEY,
} from '../packages/localbase/src/config/keys.ts'
import { startLocalbase } from '../packages/localbase/src/server.ts'
import { runImport } from '../scripts/import/run-import.ts'
import { walk } from '../scripts/import/walk.ts'
import { WorkerPool } from '../scripts/import/worker-pool.ts'

const { values } = parseArgs({ options: { files: { type: 'string' } } })
const root = fileURLToPath(new URL('..', import.meta.url))
const folder = join(root, '../shared/data/financebench-pdfs')
const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }
const mb = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(2))

const { files: allFiles } = await walk(folder)
const files = values.files ? allFiles.slice(0, Number(values.files)) : allFiles
const threads = Math.max(1, Math.min(availableParallelism(), files.length))
const pool = new WorkerPool(threads)
const dataDir = mkdtempSync(join(tmpdir(), 'sourcebook-bench-upkeep-'))
const lb = await startLocalbase({
  workdir: root,
  port: 0,
  dataDir,
  env: { ...process.env, PORT: '', HOST: '', DATA_DIR: '' },
})

type Size = { name: string; kind: string; bytes: number }

/** Every table of the app's schemas (with its indexes and TOAST) and every index, in bytes. */
async function sizes(): Promise<{ database: number; tables: Size[]; indexes: Size[] }> {
  const { rows } = await lb.db.pg.query<Size>(
    `select format('%I.%I', n.nspname, c.relname) as name, c.relkind::text as kind,
       (case when c.relkind = 'r' then pg_total_relation_size(c.oid) else pg_relation_size(c.oid) end)::float8 as bytes
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname in ('public', 'storage', 'auth') and c.relkind in ('r', 'i')
     order by bytes desc`,
  )
  const database = (
    await lb.db.pg.query<{ bytes: number }>(
      'select pg_database_size(current_database())::float8 as bytes',
    )
  ).rows[0]!.bytes
  return {
    database,
    tables: rows.filter((r) => r.kind === 'r'),
    indexes: rows.filter((r) => r.kind === 'i'),
  }
}

try {
  const email = `bench.${Date.now()}@example.test`
  const password = 'bench-password-1'
  const admin = createClient(lb.url, DEFAULT_SERVICE_ROLE_KEY, { auth: noSession })
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true })
  if (created.error) throw created.error
  const supabase = createClient(lb.url, DEFAULT_PUBLISHABLE_KEY, { auth: noSession })
  const signIn = await supabase.auth.signInWithPassword({ email, password })
  if (signIn.error) throw signIn.error
  const workspace = await supabase
    .from('workspaces')
    .insert({ name: 'Upkeep' })
    .select('id')
    .single()
  if (workspace.error) throw workspace.error
  const workspaceId = workspace.data.id as string
  const importAll = async () => {
    const totals = await runImport(supabase, {
      workspaceId,
      files,
      process: pool.process,
      concurrency: threads * 2,
    })
    if (totals.failures.length > 0) throw new Error(JSON.stringify(totals.failures))
    return totals
  }

  // The schedule's passes would blur the steps: each step vacuums only when this says so.
  await lb.upkeep.stop()
  const steps: Record<string, Awaited<ReturnType<typeof sizes>>> = {}
  const imported = await importAll()
  await lb.upkeep.run()
  steps.imported = await sizes()
  const deleted = await supabase.from('documents').delete().eq('workspace_id', workspaceId)
  if (deleted.error) throw deleted.error
  steps.deleted = await sizes()
  const vacuum = await lb.upkeep.run()
  steps.vacuumed = await sizes()
  await importAll()
  const reimportVacuum = await lb.upkeep.run()
  steps.reimported = await sizes()

  // A backup of the re-imported server, and its restore.
  const backupFile = join(dataDir, '..', `${dataDir.split('/').pop()}.tar`)
  let t0 = performance.now()
  const backupBytes = await downloadBackup(lb.url, DEFAULT_SERVICE_ROLE_KEY, backupFile)
  const backupMs = performance.now() - t0
  t0 = performance.now()
  const { pauseMs: backupPauseMs } = await restoreBackup(backupFile, `${dataDir}-restored`)
  const restoreMs = performance.now() - t0
  rmSync(backupFile, { force: true })
  rmSync(`${dataDir}-restored`, { recursive: true, force: true })

  const names = [...new Set(steps.imported!.tables.slice(0, 8).map((t) => t.name))]
  const indexNames = [...new Set(steps.imported!.indexes.slice(0, 8).map((t) => t.name))]
  const row = (list: 'tables' | 'indexes', name: string) =>
    `  ${name.padEnd(48)} ${Object.values(steps)
      .map((s) => String(mb(s[list].find((t) => t.name === name)?.bytes ?? 0)).padStart(9))
      .join(' ')}`
  const header = `  ${'MB'.padEnd(48)} ${Object.keys(steps)
    .map((k) => k.padStart(9))
    .join(' ')}`
  console.log(
    `${files.length} files, ${imported.pages} pages, ${imported.chunks} chunks\n` +
      `tables (with their indexes and TOAST):\n${header}\n${names.map((n) => row('tables', n)).join('\n')}\n` +
      `indexes:\n${header}\n${indexNames.map((n) => row('indexes', n)).join('\n')}\n` +
      `  ${'database'.padEnd(48)} ${Object.values(steps)
        .map((s) => String(mb(s.database)).padStart(9))
        .join(' ')}\n` +
      `vacuum after deleting: ${vacuum.tables.length} tables, ${Math.round(vacuum.ms)} ms, longest pause ` +
      `${Math.round(vacuum.longestPauseMs)} ms; after re-importing: longest pause ${Math.round(reimportVacuum.longestPauseMs)} ms\n` +
      `backup ${mb(backupBytes)} MB in ${(backupMs / 1000).toFixed(1)} s (database held ${backupPauseMs} ms), restored in ${(restoreMs / 1000).toFixed(1)} s`,
  )
  console.log(
    JSON.stringify({
      bench: 'upkeep',
      files: files.length,
      pages: imported.pages,
      databaseMb: Object.fromEntries(Object.entries(steps).map(([k, s]) => [k, mb(s.database)])),
      tablesMb: Object.fromEntries(
        names.map((n) => [
          n,
          Object.fromEntries(
            Object.entries(steps).map(([k, s]) => [
              k,
              mb(s.tables.find((t) => t.name === n)?.bytes ?? 0),
            ]),
          ),
        ]),
      ),
      backupMb: mb(backupBytes),
      backupMs: Math.round(backupMs),
      backupPauseMs,
      restoreMs: Math.round(restoreMs),
      vacuumLongestPauseMs: Math.round(
        Math.max(vacuum.longestPauseMs, reimportVacuum.longestPauseMs),
      ),
    }),
  )
} finally {
  await pool.close()
  await lb.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
