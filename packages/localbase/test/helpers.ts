import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { type Localbase, startLocalbase } from '../src/index.ts'
import { DEFAULT_ANON_KEY, DEFAULT_SERVICE_ROLE_KEY } from '../src/config/keys.ts'
import { scratchDatabase } from './scratch-database.ts'

export const fixtures = new URL('./fixtures/', import.meta.url).pathname

export type TestStack = Localbase & {
  /** A supabase-js client with the anon key and no persisted session. */
  client(key?: string): SupabaseClient
  admin(): SupabaseClient
  dataDir: string
}

/**
 * Starts localbase on a free port with a temporary data dir, for one test file.
 * `project` is a folder under test/fixtures (or an absolute path, e.g. from copyFixture)
 * holding a `supabase/` folder.
 */
export async function startTestStack(
  project = 'basic',
  options: {
    dataDir?: string
    env?: NodeJS.ProcessEnv
    /** A Postgres server to make this stack's database on; null for PGlite. */
    databaseServer?: string | null
  } = {},
): Promise<TestStack> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'localbase-test-'))
  const database = await scratchDatabase(dataDir, options.databaseServer)
  const lb = await startLocalbase({
    workdir: isAbsolute(project) ? project : join(fixtures, project),
    port: 0,
    dataDir,
    env: {
      ...process.env,
      PORT: '',
      HOST: '',
      DATA_DIR: '',
      DATABASE_URL: database?.url ?? '',
      ...options.env,
    },
  })
  const client = (key = DEFAULT_ANON_KEY) =>
    createClient(lb.url, key, { auth: { persistSession: false, autoRefreshToken: false } })
  return {
    ...lb,
    dataDir,
    client,
    admin: () => client(DEFAULT_SERVICE_ROLE_KEY),
    stop: async () => {
      await lb.stop()
      if (options.dataDir) return
      rmSync(dataDir, { recursive: true, force: true })
      await database?.drop()
    },
  }
}

/** The fixture copies made for this test file (or benchmark). */
const copies: string[] = []
const removeCopies = () => {
  for (const copy of copies.splice(0)) rmSync(copy, { recursive: true, force: true })
}
// Vitest ends its worker processes without an exit event: under it, each file's copies go
// when its tests are done (this module is loaded once per file).
if (process.env.VITEST) (await import('vitest')).afterAll(removeCopies)
else process.once('exit', removeCopies)

/**
 * Copies a fixture project to a temporary folder, for tests that edit migrations. The copy
 * (tens of MB once a stack has run in it) is removed after the file's tests.
 */
export function copyFixture(project: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'localbase-project-'))
  copies.push(dir)
  cpSync(join(fixtures, project), dir, { recursive: true })
  return dir
}
