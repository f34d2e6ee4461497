// search_document and chat_sources before and after a change, on one database: the same
// results, and how long each takes. The `before` versions are the functions as the landed
// migrations below defined them (`landed`), installed beside the live ones as <name>_before
// (chat_sources_before calling search_document_before). Each of the 25 development questions
// runs on both alternately (who goes first turns): search_document on the question's own
// document at 10 and 100 results, and chat_sources over the whole workspace (the workspace's
// ranking picks the documents, each document's own ranking fills them). Every column of every
// row must be the same, scores within 1e-9.
// Prints each version's wall and CPU time p50/p95 (CPU of this process, where PGlite's worker
// runs: steadier than wall time on a shared machine), the ratios, each difference, and a final
// JSON line; exits 1 on any difference.
// The database is eval:library's, kept with --data-dir (npm run eval:library -- --data-dir DIR
// --questions … <folders>); opening it applies any migration it lacks.
// Run: node bench/document-search.ts --data-dir /tmp/docsearch-lib [--rounds 3]
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { percentile } from '../packages/core/src/retrieval/metrics.ts'
import { startLocalbase } from '../packages/localbase/src/index.ts'
import { readQuestions } from '../scripts/eval/library/questions.ts'

const workdir = new URL('..', import.meta.url).pathname
const usage = 'usage: node bench/document-search.ts --data-dir DIR [--rounds 3] [--questions FILE]'
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    rounds: { type: 'string', default: '3' },
    questions: {
      type: 'string',
      default: join(workdir, '../shared/data/financebench-dev/questions.jsonl'),
    },
  },
})
const dataDir = values['data-dir'] && resolve(values['data-dir'])
if (!dataDir || !existsSync(dataDir)) {
  console.error(`--data-dir must name a database eval:library kept\n${usage}`)
  process.exit(2)
}
const rounds = Number(values.rounds)
const questions = readQuestions(resolve(values.questions))

// The functions as the migrations before the change left them.
const migrations = join(workdir, 'supabase/migrations')
const landed: [name: string, file: string][] = [
  ['search_document', '20260101005900_search_document_stored_facts.sql'],
  ['chat_sources', '20260101005600_chat_sources_heading_path.sql'],
]

/** The landed definitions, each renamed <name>_before and calling the others so. */
function beforeDefinitions(): string {
  return landed
    .map(([name, file]) => {
      const sql = readFileSync(join(migrations, file), 'utf8')
      // A migration creates the function or replaces an earlier one's.
      const start = Math.max(
        sql.lastIndexOf(`create function public.${name}(`),
        sql.lastIndexOf(`create or replace function public.${name}(`),
      )
      const end = sql.indexOf('$$;', start)
      if (start < 0 || end < 0) throw new Error(`no ${name} in ${file}`)
      let definition = sql
        .slice(start, end + '$$;'.length)
        .replace(/^create function/, 'create or replace function')
      // Calls (public.name) and parameters qualified by the function's name (name.param).
      for (const [other] of landed) {
        definition = definition
          .replaceAll(`public.${other}(`, `public.${other}_before(`)
          .replaceAll(`${other}.`, `${other}_before.`)
      }
      return definition
    })
    .join('\n')
}

const lb = await startLocalbase({ workdir, port: 0, dataDir, env: { ...process.env } })
try {
  const found = await lb.db.pg.query<{ id: string }>(
    `select id from public.workspaces where name = 'Library evaluation'`,
  )
  const workspaceId = found.rows[0]?.id
  if (!workspaceId) throw new Error(`no library workspace in ${dataDir}`)
  const documents = await lb.db.pg.query<{ id: string; file_name: string }>(
    `select id, file_name from public.documents where workspace_id = $1 and status = 'ready'`,
    [workspaceId],
  )
  const byFile = new Map(documents.rows.map((d) => [d.file_name, d.id]))
  await lb.db.pg.exec(beforeDefinitions())

  // The service role passes the functions' membership tests as a member would.
  const context = { role: 'service_role', claims: { role: 'service_role' } }
  type Row = Record<string, unknown>
  const run = (sql: string, params: unknown[]) =>
    lb.db.asUser(context, async (tx) => (await tx.query<Row>(sql, params)).rows)
  const calls = {
    document: (suffix: string, documentId: string, query: string, count: number) =>
      run(`select * from public.search_document${suffix}($1, $2, $3, $4)`, [
        workspaceId,
        documentId,
        query,
        count,
      ]),
    chat: (suffix: string, _: string, query: string, count: number) =>
      run(`select * from public.chat_sources${suffix}($1, $2, $3)`, [workspaceId, query, count]),
  }
  /** Rows as text, scores to 1e-9 (rounded, so a last-bit difference can show as one digit). */
  const same = (a: Row[], b: Row[]) =>
    a.length === b.length &&
    a.every((row, i) =>
      Object.entries(row).every(([column, value]) => {
        const other = b[i]![column]
        return typeof value === 'number' && typeof other === 'number'
          ? Math.abs(value - other) <= 1e-9
          : JSON.stringify(value) === JSON.stringify(other)
      }),
    )

  type Timing = { wall: number[]; cpu: number[] }
  const timings = () => ({
    before: { wall: [], cpu: [] } as Timing,
    after: { wall: [], cpu: [] } as Timing,
  })
  const measured = { document: timings(), chat: timings() }
  const cases: [kind: keyof typeof calls, count: number][] = [
    ['document', 10],
    ['document', 100],
    ['chat', 8],
  ]
  let compared = 0
  let differences = 0
  let turn = 0
  for (let round = 0; round < rounds; round++) {
    for (const question of questions) {
      const documentId = byFile.get(question.file)
      if (!documentId) throw new Error(`${question.file} is not among the ready documents`)
      for (const [kind, count] of cases) {
        const order =
          turn++ % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const)
        const results: Partial<Record<'before' | 'after', Row[]>> = {}
        for (const version of order) {
          const began = process.cpuUsage()
          const start = performance.now()
          results[version] = await calls[kind](
            version === 'before' ? '_before' : '',
            documentId,
            question.question,
            count,
          )
          const wall = performance.now() - start
          const used = process.cpuUsage(began)
          // The first count of each kind is the one timed, so each question weighs once a round.
          if (count !== 100) {
            measured[kind][version].wall.push(wall)
            measured[kind][version].cpu.push((used.user + used.system) / 1000)
          }
        }
        compared++
        if (!same(results.before!, results.after!)) {
          differences++
          console.log(`differs: ${kind} top ${count}: ${question.id}`)
        }
      }
      process.stderr.write(`\r${compared} compared, ${differences} differences`)
    }
  }
  process.stderr.write('\n')

  const summary: Record<string, unknown> = {
    bench: 'document-search',
    questions: questions.length,
    rounds,
    compared,
    differences,
  }
  const table: Record<string, Record<string, number>> = {}
  for (const kind of ['document', 'chat'] as const) {
    for (const measure of ['wall', 'cpu'] as const) {
      const before = measured[kind].before[measure]
      const after = measured[kind].after[measure]
      const row = {
        before_p50: percentile(before, 0.5),
        before_p95: percentile(before, 0.95),
        after_p50: percentile(after, 0.5),
        after_p95: percentile(after, 0.95),
      }
      table[`${kind} ${measure} ms`] = {
        ...row,
        p50_ratio: row.after_p50 / row.before_p50,
        p95_ratio: row.after_p95 / row.before_p95,
      }
      for (const [key, value] of Object.entries(table[`${kind} ${measure} ms`]!)) {
        summary[`${kind}_${measure}_${key}${key.endsWith('ratio') ? '' : '_ms'}`] = value
      }
    }
  }
  console.table(table)
  console.log(JSON.stringify(summary))
  process.exitCode = differences === 0 ? 0 : 1
} finally {
  await lb.stop()
}
