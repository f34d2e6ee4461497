import { stat } from 'node:fs/promises'
import { DEFAULT_SERVICE_ROLE_KEY } from '../config/keys.ts'
import { downloadBackup } from './download-backup.ts'
import { exportForHosted } from './export-hosted.ts'
import { restoreBackup } from './restore.ts'

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

export type BackupOptions = { url?: string; key?: string; out?: string }

/** `localbase backup --out FILE`: a running server's data, of one moment, into FILE. */
export async function backupCommand(options: BackupOptions): Promise<void> {
  if (!options.out) throw new Error('backup needs --out FILE')
  const url = options.url ?? process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT || 54321}`
  const key = options.key ?? process.env.SERVICE_ROLE_KEY ?? DEFAULT_SERVICE_ROLE_KEY
  const started = performance.now()
  const bytes = await downloadBackup(url, key, options.out)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(`[localbase] backup of ${url}: ${options.out}, ${mb(bytes)} in ${seconds} s`)
}

/** `localbase restore FILE --data-dir DIR`: a backup into a new data dir, ready to start. */
export async function restoreCommand(file: string | undefined, dataDir?: string): Promise<void> {
  if (!file || !dataDir) throw new Error('restore needs FILE and --data-dir DIR')
  const started = performance.now()
  const manifest = await restoreBackup(file, dataDir)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(
    `[localbase] restored ${file} (${mb((await stat(file)).size)}, taken ${manifest.createdAt}, ` +
      `database and files ${mb(manifest.databaseBytes)} compressed) into ${dataDir} in ${seconds} s; ` +
      `start it with: localbase start --data-dir ${dataDir}`,
  )
}

/** `localbase export FILE --out DIR`: a backup as SQL and bucket files for hosted Supabase. */
export async function exportCommand(file: string | undefined, out?: string): Promise<void> {
  if (!file || !out) throw new Error('export needs FILE and --out DIR')
  const done = await exportForHosted(file, out)
  console.log(
    `[localbase] ${out}/data.sql: ${done.rows} rows of ${done.tables} tables; ` +
      `${out}/storage: ${done.objects} objects.\n` +
      `On the hosted project, after supabase db push:\n` +
      `  psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -f ${out}/data.sql\n` +
      `  supabase storage cp -r ${out}/storage/<bucket> ss:///<bucket> --experimental   (for each bucket)`,
  )
}
