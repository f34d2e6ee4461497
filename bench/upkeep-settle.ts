import type { Database } from '../packages/localbase/src/db/database.ts'
import type { Upkeep } from '../packages/localbase/src/upkeep/vacuum.ts'

/**
 * Waits until the realtime change feed has taken every change queued so far off
 * realtime.changes (checking every `everyMs`), and returns how long that took. A bulk load of
 * documents queues a change per row, which the feed then takes off in batches of 500, each a
 * statement that a search waits behind: 100,000 one-chunk documents are some 200 of them.
 */
export async function drainChanges(db: Database, everyMs = 100): Promise<number> {
  const started = performance.now()
  for (;;) {
    const { rows } = await db.pg.query<{ queued: boolean }>(
      'select exists (select from realtime.changes) as queued',
    )
    if (!rows[0]!.queued) return performance.now() - started
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

export type Settled = {
  /** Whether the last pass found nothing left to vacuum. */
  settled: boolean
  passes: number
  /** Each table vacuumed and analyzed, once per pass that did it. */
  tables: string[]
  ms: number
}

/**
 * Runs the server's upkeep passes (what its schedule would run within a minute of bulk work)
 * until one finds no table due, at most `maxPasses`: a pass can leave work for the next (its
 * own vacuum's statistics, rows written meanwhile), and only then is the database as a
 * library that has sat for a while finds it.
 */
export async function settleUpkeep(upkeep: Upkeep, maxPasses = 5): Promise<Settled> {
  const started = performance.now()
  const tables: string[] = []
  for (let passes = 1; passes <= maxPasses; passes++) {
    const pass = await upkeep.run()
    tables.push(...pass.tables.map((t) => t.table))
    if (pass.tables.length === 0) {
      return { settled: true, passes, tables, ms: performance.now() - started }
    }
  }
  return { settled: false, passes: maxPasses, tables, ms: performance.now() - started }
}

/**
 * Calls `step(0)`, `step(1)`, … one after another until `done` has settled, and returns how
 * many ran: at least one, and the last one started before `done` settled.
 */
export async function repeatUntil(
  done: Promise<unknown>,
  step: (i: number) => Promise<void>,
): Promise<number> {
  let over = false
  const watched = done.then(
    () => (over = true),
    () => (over = true),
  )
  let i = 0
  do await step(i++)
  while (!over)
  await watched
  return i
}
