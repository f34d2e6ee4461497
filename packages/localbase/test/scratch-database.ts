import { createHash } from 'node:crypto'
import pg from 'pg'

/**
 * With LOCALBASE_TEST_DATABASE_URL set (a superuser on a throwaway cluster), each test
 * stack gets its own database there instead of PGlite. The name follows the data dir, so a
 * test that restarts localbase on the same data dir finds its rows again.
 */
export const testDatabaseUrl = process.env.LOCALBASE_TEST_DATABASE_URL || null

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${name}`
  return parsed.toString()
}

async function onServer<T>(server: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/**
 * The database for `dataDir` on `server` (by default LOCALBASE_TEST_DATABASE_URL), created
 * empty on first use; null when testing on PGlite.
 */
export async function scratchDatabase(
  dataDir: string,
  server = testDatabaseUrl,
): Promise<{ url: string; drop(): Promise<void> } | null> {
  if (!server) return null
  const name = `lb_test_${createHash('sha1').update(dataDir).digest('hex').slice(0, 16)}`
  await onServer(server, async (client) => {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name])
    if (!rowCount) await client.query(`create database "${name}" template template0`)
  })
  return {
    url: withDatabase(server, name),
    drop: () =>
      onServer(server, (client) =>
        client.query(`drop database if exists "${name}" with (force)`),
      ).then(() => {}),
  }
}
