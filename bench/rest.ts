// REST throughput: single-row selects by primary key under RLS, over keep-alive HTTP at
// concurrency 16 from a separate process, next to the same read (one pipelined round trip as
// the caller, as REST runs a GET) issued directly on the database in process. With
// `--db-url postgresql://superuser@host/db` it measures PGlite and that Postgres (a scratch
// database made there) one after the other and prints them side by side.
// Prints a summary and a final JSON line. Run: node bench/rest.ts [--db-url URL]
import { fork } from 'node:child_process'
import { Agent, request } from 'node:http'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { DEFAULT_ANON_KEY } from '../packages/localbase/src/config/keys.ts'
import { signIn } from '../packages/localbase/test/fixtures/rest/users.ts'
import { startTestStack } from '../packages/localbase/test/helpers.ts'

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10_000)
const CONCURRENCY = 16
const ROWS = 1_000

type ClientResult = { seconds: number; latencies: number[]; failures: number }

/** The child process: issues the requests and reports timings back to the parent. */
async function client(url: string, token: string, count: number): Promise<ClientResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  // The API key is the project's; the user's session goes in Authorization.
  const headers = { apikey: DEFAULT_ANON_KEY, authorization: `Bearer ${token}` }
  const get = (id: number) =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        `${url}/rest/v1/notes?select=*&id=eq.${id}`,
        { agent, headers },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        },
      )
      req.on('error', reject)
      req.end()
    })
  const latencies: number[] = []
  let failures = 0
  let next = 0
  const start = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const id = (next++ % ROWS) + 1
        const began = performance.now()
        if ((await get(id)) !== 200) failures++
        latencies.push(performance.now() - began)
      }
    }),
  )
  agent.destroy()
  return { seconds: (performance.now() - start) / 1000, latencies, failures }
}

function runChild(url: string, token: string, count: number): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL(import.meta.url).pathname, ['--client', url, token, String(count)])
    child.once('message', (result) => resolve(result as ClientResult))
    child.once('error', reject)
    child.once('exit', (code) => code !== 0 && reject(new Error(`client exited with ${code}`)))
  })
}

const percentile = (sorted: number[], p: number) =>
  Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0) * 100) / 100

type Summary = {
  engine: string
  failures: number
  rps: number
  p50Ms: number
  p95Ms: number
  inProcessTps: number
}

async function measure(engine: string, databaseServer: string | null): Promise<Summary> {
  const stack = await startTestStack('rest', { databaseServer })
  try {
    const user = await signIn(stack, 'bench@example.test')
    await stack.db.pg.query(
      `insert into public.notes (id, owner_id, title) select i, $1, 'note ' || i from generate_series(1, ${ROWS}) i`,
      [user.id],
    )
    await runChild(stack.url, user.token, 500)
    const http = await runChild(stack.url, user.token, REQUESTS)
    const sorted = http.latencies.sort((a, b) => a - b)

    const context = { role: 'authenticated', claims: { sub: user.id, role: 'authenticated' } }
    const sql = `select coalesce(json_agg(_r), '[]')::text as body from (select * from public.notes where id = $1) _r`
    const start = performance.now()
    for (let i = 0; i < REQUESTS; i++) {
      await stack.db.readAsUser(context, sql, [(i % ROWS) + 1])
    }
    return {
      engine,
      failures: http.failures,
      rps: Math.round(REQUESTS / http.seconds),
      p50Ms: percentile(sorted, 0.5),
      p95Ms: percentile(sorted, 0.95),
      inProcessTps: Math.round(REQUESTS / ((performance.now() - start) / 1000)),
    }
  } finally {
    await stack.stop()
  }
}

async function main() {
  const { values } = parseArgs({ options: { 'db-url': { type: 'string' } } })
  const runs = [await measure('PGlite', null)]
  if (values['db-url']) runs.push(await measure('Postgres', values['db-url']))
  for (const r of runs) {
    console.log(
      `${r.engine.padEnd(9)} HTTP ${r.rps} req/s  p50 ${r.p50Ms} ms  p95 ${r.p95Ms} ms  (${r.failures} failures)  in process ${r.inProcessTps} reads/s  ratio ${Math.round((r.rps / r.inProcessTps) * 100) / 100}`,
    )
  }
  console.log(JSON.stringify({ bench: 'rest', requests: REQUESTS, concurrency: CONCURRENCY, runs }))
}

if (process.argv[2] === '--client') {
  const [url = '', token = '', count = '0'] = process.argv.slice(3)
  const result = await client(url, token, Number(count))
  process.send?.(result, () => process.exit(0))
} else {
  await main()
}
