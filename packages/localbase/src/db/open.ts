import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from './database.ts'
import { applyPlatform } from './migrate.ts'
import { PGliteEngine } from './pglite-engine.ts'
import { PostgresEngine } from './postgres-engine.ts'

const platformDir = new URL('./sql/', import.meta.url)

/** A hash of everything that shapes a fresh platform database. */
function platformHash(): string {
  const hash = createHash('sha256')
  // The package's main entry sits in dist/, next to which is its package.json.
  hash.update(readFileSync(new URL('../package.json', import.meta.resolve('@electric-sql/pglite'))))
  for (const file of readdirSync(platformDir).sort())
    hash.update(file).update(readFileSync(new URL(file, platformDir)))
  return hash.digest('hex').slice(0, 16)
}

function isEmptyDir(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0
}

/**
 * Roles are shared by every database of a server, so two localbases setting up databases on
 * one server at once can both create or grant the same role: 23505 (duplicate role) or
 * XX000 (tuple concurrently updated). The failed file rolled back; trying again finds the
 * role there.
 */
async function applyPlatformRacing(db: Database): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await applyPlatform(db)
    } catch (error) {
      const code = (error as { code?: string }).code
      if (attempt >= 5 || (code !== '23505' && code !== 'XX000')) throw error
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt))
    }
  }
}

/**
 * Opens the database: the Postgres at `dbUrl` when given, else PGlite in the data dir. A new
 * data dir starts from a cached template (initdb plus the platform SQL, made once per
 * machine), which turns seconds of start-up into a copy.
 */
export async function openDatabase(
  dataDir: string | null,
  dbUrl?: string | null,
): Promise<Database> {
  if (dbUrl) {
    const setup = new Database(new PostgresEngine(dbUrl))
    try {
      await applyPlatformRacing(setup)
    } finally {
      await setup.close()
    }
    // Fresh connections, which read the database's search_path the platform SQL just set.
    return new Database(new PostgresEngine(dbUrl))
  }
  if (dataDir && isEmptyDir(dataDir)) {
    const template = join(tmpdir(), `localbase-template-${platformHash()}.tar.gz`)
    if (!existsSync(template)) {
      const seed = new Database(await PGliteEngine.open(null))
      await applyPlatform(seed)
      const dump = await seed.engine.pglite!.dumpDataDir('gzip')
      await seed.close()
      const partial = `${template}.${process.pid}.tmp`
      writeFileSync(partial, dump)
      renameSync(partial, template)
    }
    const db = new Database(await PGliteEngine.open(dataDir, template))
    await applyPlatform(db)
    return db
  }
  const db = new Database(await PGliteEngine.open(dataDir))
  await applyPlatform(db)
  return db
}
