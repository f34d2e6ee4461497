// `npm test`: every gate in one command — typecheck, lint, format, Edge Function type
// checks, unit and integration tests, the browser end-to-end suite — then a summary.
// Every step runs even when an earlier one fails, so one run shows everything to fix.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const bin = (name: string) => join(root, 'node_modules/.bin', name)
const reports = mkdtempSync(join(tmpdir(), 'sourcebook-test-'))

type Step = { name: string; command: string[]; report?: string; when?: () => boolean }

const tsconfigs = [
  'packages/localbase',
  'packages/core',
  'apps/web',
  'tests/e2e',
  'supabase/tests',
  'bench',
  'scripts',
].filter((dir) => existsSync(join(root, dir, 'tsconfig.json')))

const steps: Step[] = [
  ...tsconfigs.map((dir) => ({
    name: `typecheck ${dir}`,
    command: [bin('tsc'), '--noEmit', '-p', dir],
  })),
  { name: 'lint', command: [bin('eslint'), '--max-warnings=0', '.'] },
  { name: 'format', command: [bin('prettier'), '--check', '--log-level=warn', '.'] },
  {
    name: 'deno check (Edge Functions)',
    command: ['node', 'packages/localbase/src/functions/check.ts', '--workdir', '.'],
    when: () => existsSync(join(root, 'packages/localbase/src/functions/check.ts')),
  },
  {
    name: 'unit + integration (vitest)',
    command: [
      bin('vitest'),
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(reports, 'unit.json')}`,
    ],
    report: join(reports, 'unit.json'),
  },
  {
    // The suites listed in test-postgres.ts again, against a throwaway Postgres 15 cluster.
    name: 'on Postgres 15 (vitest)',
    command: [
      'node',
      'scripts/test-postgres.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(reports, 'postgres.json')}`,
    ],
    report: join(reports, 'postgres.json'),
    when: () => existsSync('/usr/lib/postgresql/15/bin/initdb'),
  },
  {
    name: 'end-to-end (Chromium)',
    command: [
      bin('vitest'),
      'run',
      '--config',
      'tests/e2e/vitest.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(reports, 'e2e.json')}`,
    ],
    report: join(reports, 'e2e.json'),
    when: () => existsSync(join(root, 'tests/e2e/vitest.config.ts')),
  },
]

// `--only <prefix>` runs just the steps whose name starts with it (e.g. `--only typecheck`).
const only = process.argv.includes('--only')
  ? process.argv[process.argv.indexOf('--only') + 1]
  : null

type Failure = { file: string; test: string; message: string }
type Result = {
  name: string
  ok: boolean
  seconds: number
  passed?: number
  failed?: number
  failures?: Failure[]
}

// Vitest's JSON report: the failed tests, each with the first line of its first error. The
// summary prints them last, because a CI log is often read from its tail only.
function failuresIn(json: {
  testResults: {
    name: string
    message?: string
    assertionResults: { status: string; fullName: string; failureMessages: string[] }[]
  }[]
}): Failure[] {
  return json.testResults.flatMap((file) => {
    const path = relative(root, file.name)
    const tests = file.assertionResults
      .filter((t) => t.status === 'failed')
      .map((t) => ({ file: path, test: t.fullName, message: firstLine(t.failureMessages[0]) }))
    // A file that fails before its tests run (an import or a hook) has no failed test.
    if (!tests.length && file.message)
      return [{ file: path, test: '(file)', message: firstLine(file.message) }]
    return tests
  })
}

function firstLine(text = ''): string {
  return text.split('\n')[0]!.slice(0, 200)
}
const results: Result[] = []
for (const step of steps) {
  if (step.when && !step.when()) continue
  if (only && !step.name.startsWith(only)) continue
  console.log(`\n▶ ${step.name}`)
  const started = performance.now()
  const run = spawnSync(step.command[0]!, step.command.slice(1), { cwd: root, stdio: 'inherit' })
  const result: Result = {
    name: step.name,
    ok: run.status === 0,
    seconds: (performance.now() - started) / 1000,
  }
  if (step.report && existsSync(step.report)) {
    const json = JSON.parse(readFileSync(step.report, 'utf8'))
    result.passed = json.numPassedTests
    result.failed = json.numFailedTests
    result.failures = failuresIn(json)
  }
  results.push(result)
}

console.log('\nSummary')
for (const r of results) {
  const counts = r.passed === undefined ? '' : `  (${r.passed} passed, ${r.failed} failed)`
  console.log(
    `  ${r.ok ? 'ok  ' : 'FAIL'}  ${r.name.padEnd(32)} ${r.seconds.toFixed(1).padStart(6)} s${counts}`,
  )
}
const failures = results.flatMap((r) => r.failures ?? [])
if (failures.length) {
  console.log('\nFailed')
  for (const f of failures) console.log(`  ${f.file} › ${f.test}\n      ${f.message}`)
}
const passed = results.reduce((n, r) => n + (r.passed ?? 0), 0)
const failed = results.reduce((n, r) => n + (r.failed ?? 0), 0)
const failedSteps = results.filter((r) => !r.ok).length
console.log(`\nsteps: ${results.length - failedSteps} passed, ${failedSteps} failed`)
console.log(`tests: ${passed} passed, ${failed} failed`)
rmSync(reports, { recursive: true, force: true })
process.exit(failedSteps ? 1 : 0)
