import { createReadStream, existsSync, readdirSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { startParams } from '../db/start-params.ts'
import { extensions } from '../db/extensions.ts'
import type { BackupManifest } from './write-backup.ts'
import { extractTar } from './tar.ts'

/**
 * Restores a `localbase backup` archive into `dataDir`, which must be new or empty: the
 * data dir is loaded from its dump, Storage's files with it, and Postgres replays its WAL
 * to the dump's moment. Object files no row names (an upload whose row had not committed)
 * are cleared by Storage's repair when localbase starts on it.
 */
export async function restoreBackup(file: string, dataDir: string): Promise<BackupManifest> {
  dataDir = resolve(dataDir)
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0)
    throw new Error(`${dataDir} is not empty: restore into a new data dir`)
  await mkdir(dirname(dataDir), { recursive: true })
  const staging = await mkdtemp(`${dataDir}.restoring-`)
  try {
    await extractTar(createReadStream(file), staging)
    const manifestPath = join(staging, 'manifest.json')
    if (!existsSync(manifestPath)) throw new Error(`${file} is not a localbase backup`)
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as BackupManifest
    if (manifest.format !== 'localbase-backup' || manifest.version !== 1)
      throw new Error(`${file}: unknown backup format ${manifest.format} ${manifest.version}`)
    await mkdir(dataDir, { recursive: true })
    const pg = await PGlite.create({
      dataDir,
      extensions,
      startParams,
      loadDataDir: new Blob([await readFile(join(staging, 'database.tar.gz'))]),
    })
    // A first statement makes it open (and recover) the database now, not on the next start.
    await pg.query('select 1')
    await pg.close()
    return manifest
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}
