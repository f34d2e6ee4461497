// The suites that must hold on a real Postgres too: starts a throwaway Postgres 15 cluster
// (initdb into a temp dir, a free port, trust auth on 127.0.0.1 only), runs them with
// LOCALBASE_TEST_DATABASE_URL pointing at it, and stops and removes it afterwards, also on
// failure. Postgres refuses to run as root, so as root the cluster runs as the `postgres`
// user that Debian's package creates. Extra arguments are passed to vitest.
import { spawnSync } from 'node:child_process'
import { chownSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const pgBin = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin'

/** Localbase's own database layer end to end, and the app's access rules and search. */
const postgresSuites = [
  'packages/localbase/test/db-postgres.test.ts',
  'packages/localbase/test/db-postgres-listener.test.ts',
  // Pooled connections a restart ended: the next statement runs on a fresh one.
  'packages/localbase/test/db-postgres-restart.test.ts',
  'packages/localbase/test/db-engines.test.ts',
  'packages/localbase/test/db-pipeline.test.ts',
  'packages/localbase/test/rest-select.test.ts',
  'packages/localbase/test/rest-mutations.test.ts',
  'packages/localbase/test/rest-rpc.test.ts',
  'packages/localbase/test/auth-session.test.ts',
  'packages/localbase/test/storage-objects.test.ts',
  'packages/localbase/test/storage-rls.test.ts',
  'packages/localbase/test/realtime-changes.test.ts',
  'supabase/tests/rls-matrix.test.ts',
  'supabase/tests/search-function.test.ts',
  'supabase/tests/search-with-settings.test.ts',
  'supabase/tests/search-ranking.test.ts',
  // search_snippet against its first definition, on passages stored compressed.
  'supabase/tests/search-snippet-rewrite.test.ts',
  // search_chunks' pruning against brute force, its rounds' checks on the row included.
  'supabase/tests/retrieval-filters.test.ts',
  'supabase/tests/chat-access.test.ts',
  // The term statistics' triggers under analyzed statistics, as autovacuum leaves them.
  'supabase/tests/retrieval.test.ts',
  // search_document's stored passage facts, written by triggers from transition tables.
  'supabase/tests/search-document-facts.test.ts',
  // search_document's question sentences, split by a regular expression with a lookbehind.
  'supabase/tests/search-document-questions.test.ts',
  // search_document's ties in the document's order, on a real planner.
  'supabase/tests/search-document-ties.test.ts',
  // Term statistics counted per document, with documents locked against concurrent writers.
  'supabase/tests/chunk-stats-lifecycle.test.ts',
  // GIN pending lists merged by the migrations' role, which owns the index, not a superuser's.
  'supabase/tests/chunk-lexemes-merged.test.ts',
  // Search results the same through either REST path and after ANALYZE, on a real planner.
  'supabase/tests/search-ties.test.ts',
  // Embedding promotion and cleanup in steps, under a real planner's index choices and locks.
  'supabase/tests/embed-upkeep-steps.test.ts',
  // Where Postgres 15 behaved differently from PGlite.
  'supabase/tests/realtime.test.ts',
  'supabase/tests/send-invitation.test.ts',
  // A failed auth mail's undo (auth/outbox.ts) reads and restores rows through jsonb.
  'packages/localbase/test/auth-smtp-stall.test.ts',
]

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

const asRoot = userInfo().uid === 0
/** Runs a Postgres program, as the `postgres` user when we are root. */
function pgRun(program: string, args: string[]): void {
  const command = asRoot
    ? ['runuser', '-u', 'postgres', '--', join(pgBin, program), ...args]
    : [join(pgBin, program), ...args]
  // Errors go to stderr; initdb's and pg_ctl's chatter on stdout is dropped.
  const run = spawnSync(command[0]!, command.slice(1), { stdio: ['ignore', 'ignore', 'inherit'] })
  if (run.status !== 0) throw new Error(`${program} failed (${run.status ?? run.signal})`)
}

const dir = mkdtempSync(join(tmpdir(), 'sourcebook-pg-'))
if (asRoot)
  chownSync(
    dir,
    Number(spawnSync('id', ['-u', 'postgres']).stdout),
    Number(spawnSync('id', ['-g', 'postgres']).stdout),
  )
const data = join(dir, 'data')
const port = await freePort()
let status = 1
let started = false
try {
  pgRun('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '-N',
  ])
  pgRun('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-o',
    // fsync off: the cluster dies with the run; it only has to be fast.
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    '-w',
    'start',
  ])
  started = true
  const vitest = spawnSync(
    join(root, 'node_modules/.bin/vitest'),
    ['run', '--maxWorkers=1', ...postgresSuites, ...process.argv.slice(2)],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        LOCALBASE_TEST_DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/postgres`,
      },
    },
  )
  status = vitest.status ?? 1
} catch (error) {
  console.error(error)
} finally {
  if (started) {
    try {
      pgRun('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
    } catch (error) {
      console.error(error)
    }
  }
  rmSync(dir, { recursive: true, force: true })
}
process.exit(status)
