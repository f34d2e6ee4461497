import type { Writable } from 'node:stream'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import type { Database } from '../db/database.ts'
import { asBulk } from '../db/work-queue.ts'
import { TarWriter } from './tar.ts'

export type BackupManifest = {
  format: 'localbase-backup'
  version: 1
  createdAt: string
  /** Bytes of the data dir's dump, compressed. */
  databaseBytes: number
  /** How long the dump held the database (every request waited meanwhile). */
  pauseMs: number
}

/**
 * Writes a consistent backup of a running localbase to `out`: a tar of `manifest.json` and
 * `database.tar.gz`, PGlite's dump of the data dir, which holds Storage's object files too.
 * PGlite takes it between two statements, so database and files are of one moment: an
 * object's file is written before its row commits and removed only after its row's deletion
 * commits, so every object a row in the dump names is in it. Requests wait only while the
 * data dir is read, as behind one long statement.
 */
export async function writeBackup(db: Database, out: Writable): Promise<BackupManifest> {
  const pglite = db.engine.pglite
  if (!pglite) throw new Error('backup copies a PGlite data dir; back up a Postgres with pg_dump')
  // Less WAL to replay on restore.
  await db.pg.exec('checkpoint')
  const started = performance.now()
  // Uncompressed: PGlite holds the database while it dumps, so compress after, off the lock.
  const raw = await asBulk(() => pglite.dumpDataDir('none'))
  const pauseMs = Math.round(performance.now() - started)
  const dump = await promisify(gzip)(raw, { level: 6 })
  const manifest: BackupManifest = {
    format: 'localbase-backup',
    version: 1,
    createdAt: new Date().toISOString(),
    databaseBytes: dump.byteLength,
    pauseMs,
  }
  const tar = new TarWriter(out)
  await tar.addBuffer('manifest.json', Buffer.from(JSON.stringify(manifest, null, 2)))
  await tar.addBuffer('database.tar.gz', dump)
  await tar.end()
  return manifest
}
