// A team's server under load: a fresh localbase in a child process, N clients through
// supabase-js listing the library, searching (the `search` function) and opening
// conversations, first idle, then while the importer's code path ingests
// ../shared/data/financebench-pdfs into another workspace. Prints throughput, errors and
// p50/p95/max per request kind for both phases with the load/idle ratio, and import pages/s
// under load against an idle import of the same files.
// Targets (issue #16): search p95 under load <= 250 ms and <= 5x idle; list p95 <= 100 ms;
// 0 errors; import under load >= 0.7x idle.
// Run: node bench/load.ts [--clients 50] [--seconds 20] [--files 12] [--think-ms 100]
//   [--db-url postgresql://superuser@host/db: PGlite and that Postgres side by side]
//   (last line: JSON)
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, renameSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import {
  DEFAULT_PUBLISHABLE_KEY,
  DEFAULT_SERVICE_ROLE_KEY,
} from '../packages/localbase/src/config/keys.ts'
import { type ImportTotals, runImport } from '../scripts/import/run-import.ts'
import { walk } from '../scripts/import/walk.ts'
import { formatTrace, readTrace, summarizeTrace } from './load-trace.ts'
import { sideBySide } from './side-by-side.ts'
import { WorkerPool } from '../scripts/import/worker-pool.ts'

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    files: { type: 'string' },
    'think-ms': { type: 'string', default: '100' },
    'db-url': { type: 'string' },
  },
})
if (values['db-url']) {
  // The same run on PGlite, then on a scratch database of that server (localbase inherits
  // DATABASE_URL), summaries side by side.
  const args = ['--clients', values.clients!, '--seconds', values.seconds!]
  args.push('--think-ms', values['think-ms']!, ...(values.files ? ['--files', values.files] : []))
  await sideBySide(new URL(import.meta.url).pathname, args, values['db-url'])
  process.exit(0)
}
const clientCount = Number(values.clients)
const idleSeconds = Number(values.seconds)
const thinkMs = Number(values['think-ms'])

const root = fileURLToPath(new URL('..', import.meta.url))
const folder = join(root, '../shared/data/financebench-pdfs')
const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }

// Questions a finance team would type; the same fixed list every run.
const QUERIES = [
  'revenue growth',
  'operating income 2022',
  'cash flow from operations',
  'capital expenditures',
  'net income attributable',
  'dividends per share',
  'inventory turnover',
  'long-term debt maturities',
  'gross margin',
  'share repurchase program',
  'effective tax rate',
  'goodwill impairment',
]

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function startLocalbase(port: number, dataDir: string, trace: string): Promise<ChildProcess> {
  const cli = join(root, 'packages/localbase/src/cli.ts')
  const args = [cli, 'start', '--workdir', root, '--port', String(port), '--data-dir', dataDir]
  const env = { ...process.env, LOCALBASE_DB_TRACE: trace }
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'], env })
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`localbase exited with ${child.exitCode}`)
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return child
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  child.kill()
  throw new Error('localbase did not start within 150 s')
}

type Kind = 'list' | 'search' | 'conversation'
type Sample = { kind: Kind; ms: number; ok: boolean }

/** One request of each kind, as the web app makes it; throws on an error answer. */
function requests(supabase: SupabaseClient, workspaceId: string, conversationIds: string[]) {
  return {
    list: async () => {
      const { error } = await supabase
        .from('documents')
        .select(
          'id, title, file_name, periods, mime_type, size_bytes, page_count, chunk_count, status, stage, progress, error, created_at, updated_at, created_by, replaces_id',
        )
        .eq('workspace_id', workspaceId)
        .order('created_at', { ascending: false })
        .order('id')
        .range(0, 999)
      if (error) throw error
    },
    search: async () => {
      const query = QUERIES[Math.floor(Math.random() * QUERIES.length)]!
      const { data, error } = await supabase.functions.invoke<{ results: unknown[] }>('search', {
        body: { workspace_id: workspaceId, query, limit: 20 },
      })
      if (error) throw error
      if (!Array.isArray(data?.results)) throw new Error('search answered without results')
    },
    conversation: async () => {
      const id = conversationIds[Math.floor(Math.random() * conversationIds.length)]!
      const [conversation, messages] = await Promise.all([
        supabase.from('conversations').select('*').eq('id', id).maybeSingle(),
        supabase
          .from('messages')
          .select(
            'id, conversation_id, role, content, citations, status, error, model, extractive, created_by, created_at, message_feedback(rating, comment)',
          )
          .eq('conversation_id', id)
          .order('created_at')
          .order('id'),
      ])
      if (conversation.error) throw conversation.error
      if (messages.error) throw messages.error
    },
  }
}

// The mix: as many searches as lists, conversations opened half as often.
const MIX: Kind[] = ['list', 'list', 'search', 'search', 'conversation']

/** N closed-loop clients (each waits `thinkMs` ± half between requests) until `until` resolves. */
async function drive(
  clients: ReturnType<typeof requests>[],
  until: Promise<unknown>,
): Promise<{ samples: Sample[]; ms: number; errors: string[] }> {
  const samples: Sample[] = []
  const errors: string[] = []
  let done = false
  void until.finally(() => (done = true))
  const started = performance.now()
  await Promise.all(
    clients.map(async (client, i) => {
      let turn = i
      while (!done) {
        const kind = MIX[turn++ % MIX.length]!
        const t0 = performance.now()
        try {
          await client[kind]()
          samples.push({ kind, ms: performance.now() - t0, ok: true })
        } catch (error) {
          samples.push({ kind, ms: performance.now() - t0, ok: false })
          if (errors.length < 5) errors.push(`${kind}: ${(error as Error).message}`)
        }
        await new Promise((resolve) => setTimeout(resolve, thinkMs * (0.5 + Math.random())))
      }
    }),
  )
  return { samples, ms: performance.now() - started, errors }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : NaN

function summarize(samples: Sample[], ms: number) {
  const kinds = Object.fromEntries(
    (['list', 'search', 'conversation'] as const).map((kind) => {
      const mine = samples.filter((s) => s.kind === kind)
      const sorted = mine.map((s) => s.ms).sort((a, b) => a - b)
      return [
        kind,
        {
          requests: mine.length,
          errors: mine.filter((s) => !s.ok).length,
          p50: Math.round(percentile(sorted, 0.5)),
          p95: Math.round(percentile(sorted, 0.95)),
          max: Math.round(sorted.at(-1) ?? NaN),
        },
      ]
    }),
  ) as Record<Kind, { requests: number; errors: number; p50: number; p95: number; max: number }>
  return {
    requestsPerSec: Number(((samples.length * 1000) / ms).toFixed(1)),
    errors: samples.filter((s) => !s.ok).length,
    kinds,
  }
}

const { files: allFiles } = await walk(folder)
const files = values.files ? allFiles.slice(0, Number(values.files)) : allFiles
const threads = Math.max(1, Math.min(availableParallelism(), files.length))
const pool = new WorkerPool(threads)

const port = await freePort()
const url = `http://127.0.0.1:${port}`
const dataDir = mkdtempSync(join(tmpdir(), 'sourcebook-bench-load-'))
// PGlite's jobs (see pglite-trace.ts), one file per phase: the engine appends to this path,
// and each phase's lines are moved aside as the next phase begins.
const traceDir = mkdtempSync(join(tmpdir(), 'sourcebook-bench-trace-'))
const trace = join(traceDir, 'jobs.jsonl')
const tracePhase = (name: string) => {
  try {
    renameSync(trace, join(traceDir, `${name}.jsonl`))
  } catch {
    // Nothing traced yet (or a Postgres run): that phase is empty.
  }
  return join(traceDir, `${name}.jsonl`)
}
const localbase = await startLocalbase(port, dataDir, trace)
try {
  const email = `bench.${Date.now()}@example.test`
  const password = 'bench-password-1'
  const admin = createClient(url, DEFAULT_SERVICE_ROLE_KEY, { auth: noSession })
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true })
  if (created.error) throw created.error
  const importer = createClient(url, DEFAULT_PUBLISHABLE_KEY, { auth: noSession })
  const signIn = await importer.auth.signInWithPassword({ email, password })
  if (signIn.error) throw signIn.error
  const newWorkspace = async (name: string) => {
    const { data, error } = await importer.from('workspaces').insert({ name }).select('id').single()
    if (error) throw error
    return data.id as string
  }
  const library = await newWorkspace('Library under load')
  const target = await newWorkspace('Import under load')

  const importInto = async (workspaceId: string, label: string): Promise<ImportTotals> => {
    const totals = await runImport(importer, {
      workspaceId,
      files,
      process: pool.process,
      concurrency: threads * 2,
      onFile: (t, file) =>
        console.log(`[${label} ${t.done}/${t.total}] ${t.pages} pages  ${file.name}`),
    })
    if (totals.failures.length > 0) throw new Error(JSON.stringify(totals.failures))
    return totals
  }

  // The idle import fills the library the clients read.
  let started = performance.now()
  const idleImport = await importInto(library, 'idle import')
  const idleImportMs = performance.now() - started

  // Conversations to open: a question and an answer each, as the chat function leaves them.
  const conversationIds: string[] = []
  for (let i = 0; i < 10; i++) {
    const { data, error } = await importer
      .from('conversations')
      .insert({ workspace_id: library, title: `Question ${i + 1}`, visibility: 'shared' })
      .select('id')
      .single()
    if (error) throw error
    conversationIds.push(data.id)
    const messages = await admin.from('messages').insert([
      {
        conversation_id: data.id,
        role: 'user',
        content: QUERIES[i % QUERIES.length]!,
        extractive: false,
      },
      {
        conversation_id: data.id,
        role: 'assistant',
        content: 'An answer with a citation [1].',
        extractive: true,
      },
    ])
    if (messages.error) throw messages.error
  }

  // Every client has its own supabase-js (own connections) with the member's token.
  const token = signIn.data.session!.access_token
  const clients = Array.from({ length: clientCount }, () =>
    requests(
      createClient(url, DEFAULT_PUBLISHABLE_KEY, {
        auth: noSession,
        global: { headers: { Authorization: `Bearer ${token}` } },
      }),
      library,
      conversationIds,
    ),
  )

  tracePhase('setup')
  console.log(`idle: ${clientCount} clients for ${idleSeconds} s`)
  const idleRun = await drive(
    clients,
    new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000)),
  )
  const idleTrace = tracePhase('idle')
  console.log(`load: ${clientCount} clients while importing ${files.length} files`)
  started = performance.now()
  let loadImportMs = 0
  const loadImportDone = importInto(target, 'import under load').then((totals) => {
    loadImportMs = performance.now() - started
    return totals
  })
  const loadRun = await drive(clients, loadImportDone)
  const loadImport = await loadImportDone
  // The engine writes its trace at most 250 ms late.
  await new Promise((resolve) => setTimeout(resolve, 1500))
  const workerIdle = summarizeTrace(readTrace(idleTrace))
  const workerLoad = summarizeTrace(readTrace(tracePhase('load')))

  const idle = summarize(idleRun.samples, idleRun.ms)
  const load = summarize(loadRun.samples, loadRun.ms)
  const pagesPerSec = (pages: number, ms: number) => Number(((pages * 1000) / ms).toFixed(1))
  const result = {
    bench: 'load',
    clients: clientCount,
    thinkMs,
    files: files.length,
    pages: idleImport.pages,
    idle,
    load,
    p95Ratio: Object.fromEntries(
      (['list', 'search', 'conversation'] as const).map((k) => [
        k,
        Number((load.kinds[k].p95 / idle.kinds[k].p95).toFixed(2)),
      ]),
    ) as Record<Kind, number>,
    importIdlePagesPerSec: pagesPerSec(idleImport.pages, idleImportMs),
    importUnderLoadPagesPerSec: pagesPerSec(loadImport.pages, loadImportMs),
    errorSamples: [...idleRun.errors, ...loadRun.errors],
    worker: { idle: workerIdle, load: workerLoad },
  }
  const importRatio = result.importUnderLoadPagesPerSec / result.importIdlePagesPerSec
  const line = (name: string, s: typeof idle) =>
    `${name}: ${s.requestsPerSec} requests/s, ${s.errors} errors\n` +
    (['list', 'search', 'conversation'] as const)
      .map((k) => {
        const r = s.kinds[k]
        return `  ${k.padEnd(12)} ${String(r.requests).padStart(6)} requests  p50 ${r.p50} ms  p95 ${r.p95} ms  max ${r.max} ms  (${r.errors} errors)`
      })
      .join('\n')
  const target95 = (ok: boolean) => (ok ? 'met' : 'MISSED')
  if (workerLoad.jobs > 0)
    console.log(`${formatTrace('idle', workerIdle)}\n${formatTrace('under load', workerLoad)}`)
  console.log(
    `${line('idle', idle)}\n${line('under load', load)}\n` +
      `p95 load/idle: list ${result.p95Ratio.list}x, search ${result.p95Ratio.search}x, conversation ${result.p95Ratio.conversation}x\n` +
      `import: idle ${result.importIdlePagesPerSec} pages/s, under load ${result.importUnderLoadPagesPerSec} pages/s (${importRatio.toFixed(2)}x)\n` +
      `targets: search p95 <= 250 ms ${target95(load.kinds.search.p95 <= 250)}, <= 5x idle ${target95(result.p95Ratio.search <= 5)}; ` +
      `list p95 <= 100 ms ${target95(load.kinds.list.p95 <= 100)}; 0 errors ${target95(idle.errors + load.errors === 0)}; ` +
      `import >= 0.7x idle ${target95(importRatio >= 0.7)}` +
      (result.errorSamples.length ? `\nerrors: ${result.errorSamples.join('\n  ')}` : ''),
  )
  console.log(JSON.stringify(result))
} finally {
  await pool.close()
  localbase.kill()
  await new Promise((resolve) => localbase.once('exit', resolve))
  rmSync(dataDir, { recursive: true, force: true })
  rmSync(traceDir, { recursive: true, force: true })
}
