/**
 * Bulk import of a folder into a workspace, as a signed-in user (RLS applies: editors and
 * owners only). Extraction runs on a pool of worker threads; uploads and inserts run
 * concurrently on the main thread.
 *
 *   npm run import -- --workspace <id> [--collection NAME] [--url URL --key KEY --email E
 *     --password P] <folder>
 *
 * With --collection, every file imported (or already there) goes into the collection of
 * that name, created when missing.
 * Email and password default to SOURCEBOOK_EMAIL and SOURCEBOOK_PASSWORD. Exits 1 when a
 * file failed or the import was interrupted, 2 on bad usage, a failed sign-in, or a
 * workspace the user cannot add documents to.
 */
import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import { createClient } from '@supabase/supabase-js'
import { DEFAULT_PUBLISHABLE_KEY } from '../packages/localbase/src/config/keys.ts'
import { progressLine, summary } from './import/report.ts'
import { findOrCreateCollection } from './import/collection.ts'
import { runImport } from './import/run-import.ts'
import { walk } from './import/walk.ts'
import { WorkerPool } from './import/worker-pool.ts'

const usage =
  'usage: npm run import -- --workspace <id> [--collection NAME] [--url URL] [--key KEY] [--email E] [--password P] <folder>'

function fail(message: string): never {
  console.error(`${message}\n${usage}`)
  process.exit(2)
}

const { values, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        workspace: { type: 'string' },
        collection: { type: 'string' },
        url: { type: 'string', default: 'http://127.0.0.1:54321' },
        key: { type: 'string', default: DEFAULT_PUBLISHABLE_KEY },
        email: { type: 'string', default: process.env.SOURCEBOOK_EMAIL },
        password: { type: 'string', default: process.env.SOURCEBOOK_PASSWORD },
      },
    })
  } catch (error) {
    return fail((error as Error).message)
  }
})()
const folder = positionals[0]
if (!values.workspace || !folder || positionals.length > 1) fail('a workspace and one folder')
if (!values.email || !values.password) {
  fail('--email and --password (or SOURCEBOOK_EMAIL and SOURCEBOOK_PASSWORD) are needed')
}

const supabase = createClient(values.url, values.key, {
  auth: { persistSession: false, detectSessionInUrl: false },
})
const signIn = await supabase.auth.signInWithPassword({
  email: values.email,
  password: values.password,
})
if (signIn.error) fail(`sign-in failed: ${signIn.error.message}`)

// Checked once up front, rather than every file failing the same way.
const member = await supabase
  .from('workspace_members')
  .select('role')
  .eq('workspace_id', values.workspace)
  .eq('user_id', signIn.data.user.id)
  .maybeSingle<{ role: string }>()
if (member.error || !member.data) {
  fail(`workspace ${values.workspace} not found, or ${values.email} is not a member of it`)
}
if (member.data.role === 'viewer') {
  fail(`${values.email} is a viewer of this workspace: only editors and owners can import`)
}

if (values.collection !== undefined && values.collection.trim() === '') {
  fail('--collection needs a name')
}
const collectionId =
  values.collection === undefined
    ? undefined
    : await findOrCreateCollection(supabase, values.workspace, values.collection).catch(
        (error: Error) => fail(error.message),
      )

const { files, skipped } = await walk(folder).catch((error: Error) => fail(error.message))
if (skipped.length > 0) console.log(`Skipping ${skipped.length} unsupported: ${skipped.join(', ')}`)

const threads = Math.max(1, Math.min(availableParallelism(), files.length))
const pool = new WorkerPool(threads)
const tty = process.stdout.isTTY
// Ctrl-C: files in flight end failed 'cancelled' (nothing half-indexed), the summary still
// prints. A second Ctrl-C exits at once.
const controller = new AbortController()
process.once('SIGINT', () => controller.abort())
const started = performance.now()
const totals = await runImport(supabase, {
  workspaceId: values.workspace,
  files,
  process: pool.process,
  concurrency: threads * 2,
  signal: controller.signal,
  collectionId,
  onFile: (totals, file) => {
    if (tty) process.stdout.write(`\r\x1b[2K${progressLine(totals, file.name)}`)
    else console.log(progressLine(totals, file.name))
  },
})
await pool.close()
supabase.auth.stopAutoRefresh()
if (tty && files.length > 0) process.stdout.write('\n')
console.log(summary(totals, skipped, performance.now() - started))
process.exit(totals.failures.length > 0 || controller.signal.aborted ? 1 : 0)
