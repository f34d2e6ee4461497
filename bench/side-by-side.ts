// Runs one bench script twice, on PGlite and then on a Postgres server (a scratch database
// made there, handed over as DATABASE_URL), and prints the two final JSON summaries side by
// side. One after the other, not at once: the machine may be shared, so compare ratios and
// repeat before trusting a difference.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scratchDatabase } from '../packages/localbase/test/scratch-database.ts'

async function summaryOf(script: string, args: string[], databaseUrl: string): Promise<unknown> {
  const child = spawn(process.execPath, [script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DATABASE_URL: databaseUrl },
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk
    process.stdout.write(chunk)
  })
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  if (code !== 0) throw new Error(`${script} exited with ${code}`)
  const last = output.trim().split('\n').at(-1) ?? ''
  return JSON.parse(last)
}

/** `server`: a superuser URL on a Postgres 15+ with pgvector, e.g. a throwaway cluster. */
export async function sideBySide(script: string, args: string[], server: string): Promise<void> {
  console.log('— PGlite —')
  const pglite = (await summaryOf(script, args, '')) as Record<string, unknown>
  const dir = mkdtempSync(join(tmpdir(), 'sourcebook-bench-pg-'))
  const database = (await scratchDatabase(dir, server))!
  let postgres: Record<string, unknown>
  try {
    console.log('— Postgres —')
    postgres = (await summaryOf(script, args, database.url)) as Record<string, unknown>
  } finally {
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  }
  const keys = [...new Set([...Object.keys(pglite), ...Object.keys(postgres)])]
  console.table(
    Object.fromEntries(keys.map((k) => [k, { PGlite: pglite[k], Postgres: postgres[k] }])),
  )
  console.log(JSON.stringify({ pglite, postgres }))
}
