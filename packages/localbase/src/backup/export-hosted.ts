import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { startParams } from '../db/start-params.ts'
import { extensions } from '../db/extensions.ts'
import { restoreBackup } from './restore.ts'

/** Rows per INSERT: big enough to be quick, small enough for psql and the server's memory. */
const BATCH = 500

export type HostedExport = { tables: number; rows: number; objects: number }

type Table = { name: string; columns: string[] }

/**
 * Turns a `localbase backup` into what a hosted Supabase project takes: `data.sql`, the rows
 * of every table in `public` and the accounts (`auth.users`, `auth.identities`), for `psql`
 * after `supabase db push` has made the schema from the same migrations; and
 * `storage/<bucket>/<name>`, every object's bytes in the bucket layout, for the Supabase
 * CLI's `storage cp` (hosted Storage keeps bytes in its own store, so objects must arrive
 * through its API, which writes their storage.objects rows itself).
 */
export async function exportForHosted(backupFile: string, outDir: string): Promise<HostedExport> {
  outDir = resolve(outDir)
  const scratch = await mkdtemp(join(tmpdir(), 'localbase-export-'))
  try {
    const dataDir = join(scratch, 'data')
    await restoreBackup(backupFile, dataDir)
    const pg = await PGlite.create({ dataDir, extensions, startParams })
    try {
      await mkdir(outDir, { recursive: true })
      const counts = await writeData(pg, join(outDir, 'data.sql'))
      const objects = await copyObjects(pg, dataDir, join(outDir, 'storage'))
      return { ...counts, objects }
    } finally {
      await pg.close()
    }
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

/** The tables to move and their insertable columns (generated ones are made again there). */
async function tables(pg: PGlite): Promise<Table[]> {
  const { rows } = await pg.query<Table>(
    `select format('%I.%I', n.nspname, c.relname) as name,
       array_agg(format('%I', a.attname) order by a.attnum) as columns
     from pg_class c
     join pg_namespace n on n.oid = c.relnamespace
     join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       and a.attgenerated = ''
     where c.relkind in ('r', 'p')
       and (n.nspname = 'public' or (n.nspname, c.relname) in (('auth', 'users'), ('auth', 'identities')))
     group by n.nspname, c.relname
     order by n.nspname = 'public', n.nspname, c.relname`,
  )
  return rows
}

async function writeData(pg: PGlite, file: string): Promise<{ tables: number; rows: number }> {
  const out = createWriteStream(file)
  const write = (text: string) =>
    new Promise<void>((done, fail) => out.write(text, (error) => (error ? fail(error) : done())))
  // A dollar quote no value contains.
  const tag = `$d${randomBytes(6).toString('hex')}$`
  await write(
    `-- Sourcebook data for a hosted Supabase project, from a localbase backup.\n` +
      `-- Make the schema first (supabase db push), then: psql "$DATABASE_URL" -f data.sql\n` +
      `begin;\n` +
      // Rows arrive in any order and already carry what triggers would derive (profiles,
      // statistics): neither foreign keys nor triggers fire while they load. Rows the
      // migrations made there already are skipped.
      `set local session_replication_role = replica;\n`,
  )
  const list = await tables(pg)
  let total = 0
  for (const table of list) {
    const columns = table.columns.join(', ')
    for (let offset = 0; ; offset += BATCH) {
      const { rows } = await pg.query<{ batch: string | null }>(
        `select json_agg(t)::text as batch from (select ${columns} from ${table.name}
           order by ctid limit ${BATCH} offset ${offset}) t`,
      )
      const batch = rows[0]?.batch
      if (!batch) break
      if (batch.includes(tag)) throw new Error(`a value in ${table.name} contains ${tag}`)
      await write(
        `insert into ${table.name} (${columns})\n  select ${columns} from json_populate_recordset(null::${table.name}, ${tag}${batch}${tag})\n  on conflict do nothing;\n`,
      )
      total += (JSON.parse(batch) as unknown[]).length
    }
  }
  // Identity and serial columns go on from the highest value moved.
  const { rows: sequences } = await pg.query<{ sql: string }>(
    `select format('select setval(%L, (select coalesce(max(%I), 0) + 1 from %I.%I), false);',
       pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname), a.attname, n.nspname, c.relname) as sql
     from pg_class c
     join pg_namespace n on n.oid = c.relnamespace
     join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     where c.relkind = 'r' and n.nspname = 'public'
       and pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) is not null`,
  )
  await write(sequences.map((s) => `${s.sql}\n`).join('') + 'commit;\n')
  await new Promise<void>((done, fail) =>
    out.end((error?: Error | null) => (error ? fail(error) : done())),
  )
  return { tables: list.length, rows: total }
}

/** Every object's current bytes under `<bucket>/<name>`. */
async function copyObjects(pg: PGlite, dataDir: string, storageDir: string): Promise<number> {
  const { rows } = await pg.query<{ bucket: string; name: string; version: string }>(
    `select bucket_id as bucket, name, version from storage.objects order by bucket_id, name`,
  )
  for (const { bucket, name, version } of rows) {
    const target = resolve(storageDir, bucket, name)
    if (!target.startsWith(storageDir + '/'))
      throw new Error(`unsafe object name: ${bucket}/${name}`)
    await mkdir(dirname(target), { recursive: true })
    await copyFile(join(dataDir, 'storage', 'objects', version), target)
  }
  return rows.length
}
