import { createHash } from 'node:crypto'
import { existsSync, globSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Database } from './database.ts'

const platformDir = new URL('./sql/', import.meta.url)

export class MigrationError extends Error {}

function pgMessage(error: unknown): string {
  const e = error as { message?: string; detail?: string; hint?: string; position?: string }
  return [e.message, e.detail && `DETAIL: ${e.detail}`, e.hint && `HINT: ${e.hint}`]
    .filter(Boolean)
    .join('\n')
}

// The Supabase CLI runs migrations and seeds as postgres, whose search_path (set in
// 00-roles.sql, which PGlite's one session never re-reads) includes extensions: gen_salt(),
// uuid_generate_v4() and friends resolve unqualified there, so they must here too.
const projectSearchPath = `set local search_path = "$user", public, extensions`

/** Applies localbase's own platform SQL (what hosted Supabase provides), each file once. */
export async function applyPlatform(db: Database): Promise<void> {
  await db.pg.exec(`create schema if not exists _localbase;
    create table if not exists _localbase.platform_migrations (name text primary key, applied_at timestamptz default now());`)
  const applied = new Set(
    (
      await db.pg.query<{ name: string }>('select name from _localbase.platform_migrations')
    ).rows.map((r) => r.name),
  )
  const files = readdirSync(platformDir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
  for (const file of files) {
    if (applied.has(file)) continue
    const sql = readFileSync(new URL(file, platformDir), 'utf8')
    await db.asService(async (tx) => {
      await tx.exec(sql)
      await tx.query('insert into _localbase.platform_migrations (name) values ($1)', [file])
    })
  }
}

/**
 * Applies `supabase/migrations/*.sql` in file-name order, each once, in its own
 * transaction, recorded as the Supabase CLI records them. A failing file leaves the
 * database as it was before that file and stops start-up.
 */
export async function applyMigrations(db: Database, supabaseDir: string): Promise<string[]> {
  const dir = join(supabaseDir, 'migrations')
  if (!existsSync(dir)) return []
  const applied = new Set(
    (
      await db.pg.query<{ version: string }>(
        'select version from supabase_migrations.schema_migrations',
      )
    ).rows.map((r) => r.version),
  )
  const done: string[] = []
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    const [version, ...rest] = file.replace(/\.sql$/, '').split('_')
    if (applied.has(version!)) continue
    const sql = readFileSync(join(dir, file), 'utf8')
    try {
      await db.asService(async (tx) => {
        await tx.exec(projectSearchPath)
        await tx.exec(sql)
        await tx.query(
          'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
          [version, rest.join('_'), [sql]],
        )
      })
    } catch (error) {
      throw new MigrationError(`migration ${file} failed: ${pgMessage(error)}`, { cause: error })
    }
    done.push(file)
  }
  return done
}

/**
 * Runs the seed files (`[db.seed] sql_paths`, default supabase/seed.sql) once each, the
 * first time the database sees them, in the order the globs list them.
 */
export async function applySeed(
  db: Database,
  supabaseDir: string,
  patterns: string[],
): Promise<string[]> {
  const files = patterns.flatMap((pattern) => globSync(pattern, { cwd: supabaseDir }).sort())
  const done: string[] = []
  for (const file of [...new Set(files)]) {
    const key = join('supabase', file)
    const seen = await db.pg.query('select 1 from supabase_migrations.seed_files where path = $1', [
      key,
    ])
    if (seen.rows.length) continue
    const sql = readFileSync(join(supabaseDir, file), 'utf8')
    try {
      await db.asService(async (tx) => {
        await tx.exec(projectSearchPath)
        await tx.exec(sql)
        await tx.query('insert into supabase_migrations.seed_files (path, hash) values ($1, $2)', [
          key,
          createHash('sha256').update(sql).digest('hex'),
        ])
      })
    } catch (error) {
      throw new MigrationError(`seed ${file} failed: ${pgMessage(error)}`, { cause: error })
    }
    done.push(file)
  }
  return done
}
