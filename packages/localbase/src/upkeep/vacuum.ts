import type { Database } from '../db/database.ts'
import { asBulk, withJobKey } from '../db/work-queue.ts'

/** How often the statistics are read for tables that bulk work left with dead or new rows. */
const CHECK_EVERY_MS = 30_000
/** How often every table is vacuumed and analyzed, whatever the statistics say. */
const FULL_EVERY_MS = 6 * 60 * 60_000

export type VacuumedTable = {
  table: string
  deadRows: number
  /** Its HNSW indexes rebuilt before its vacuum (see `rebuildsHnsw`). */
  rebuilt: string[]
  /** Its statements together: rebuilds, vacuum and analyze. */
  ms: number
  /** The longest of its statements, during which every other query waited. */
  pauseMs: number
}

export type VacuumPass = {
  tables: VacuumedTable[]
  ms: number
  /** The longest single statement, during which every other query waited. */
  longestPauseMs: number
}

export type UpkeepStats = {
  passes: number
  tablesVacuumed: number
  /** Over every pass so far. */
  longestPauseMs: number
  longestPauseTable: string | null
  lastPassAt: string | null
}

export type Upkeep = {
  /** Vacuums and analyzes the tables that need it now (every table with `all`). */
  run(options?: { all?: boolean }): Promise<VacuumPass>
  stats(): UpkeepStats
  /** Stops the schedule and waits for a pass under way. */
  stop(): Promise<void>
}

export type UpkeepOptions = {
  checkEveryMs?: number
  fullEveryMs?: number
}

type TableStat = {
  table: string
  dead: number
  live: number
  modified: number
  /** Of its TOAST table, where long values (document texts) live: vacuumed with it. */
  toastDead: number
  toastLive: number
}

/**
 * Whether a table's HNSW indexes (pgvector) are rebuilt before it is vacuumed: when it has
 * at least as many dead rows as live, as after a workspace's vectors were all replaced (a new
 * model promoted or chosen outright). Vacuuming an HNSW index repairs every live element of
 * its graph that links to a removed one, a search each: after such a rewrite nearly all of
 * them, and `vacuum public.chunks` held PGlite 9.2-15.5 s for a filing's 553 vectors of 1,536
 * dimensions, where rebuilding the index held it 0.9-3.4 s and the vacuum after it 28 ms
 * (bench/vacuum-hnsw.ts). A rebuild costs as much as the index is large, a repair as much as
 * was removed: with fewer dead rows (one document re-embedded in a library) vacuum repairs.
 */
export const rebuildsHnsw = (t: { dead: number; live: number }) => t.dead > 0 && t.dead >= t.live

/**
 * PGlite has no autovacuum: dead rows from replaced and deleted documents, re-embeddings and
 * message updates stay, and the planner keeps the statistics of an empty library after an
 * import. This does autovacuum's job from the server: every half minute it reads
 * `pg_stat_user_tables` and runs `vacuum (analyze)` on the tables past autovacuum's thresholds (so an
 * import's or a deletion's tables are done within a minute of it ending), and every six hours
 * on every table. PGlite runs one statement at a time, so it goes table by table, and vacuum
 * and analyze (and any HNSW rebuild before them) as statements of their own, letting the
 * queries that queued meanwhile run between them: a request waits at most one of them, which
 * `stats().longestPauseMs` records.
 */
export function startUpkeep(db: Database, options: UpkeepOptions = {}): Upkeep {
  const stats: UpkeepStats = {
    passes: 0,
    tablesVacuumed: 0,
    longestPauseMs: 0,
    longestPauseTable: null,
    lastPassAt: null,
  }
  let running: Promise<VacuumPass> | null = null

  const tableStats = async (): Promise<TableStat[]> => {
    // The statistics a backend collects reach pg_stat_* only when it flushes them, which a
    // single-user backend never does unprompted: ask for it, then read in a new statement.
    await db.pg.query('select pg_stat_force_next_flush()')
    const { rows } = await db.pg.query<TableStat>(
      `select format('%I.%I', s.schemaname, s.relname) as "table", s.n_dead_tup::int as dead,
         s.n_live_tup::int as live, s.n_mod_since_analyze::int as modified,
         coalesce(t.n_dead_tup, 0)::int as "toastDead", coalesce(t.n_live_tup, 0)::int as "toastLive"
       from pg_stat_user_tables s
       join pg_class c on c.oid = s.relid
       left join pg_stat_all_tables t on t.relid = c.reltoastrelid
       order by s.n_dead_tup + coalesce(t.n_dead_tup, 0) desc, s.relname`,
    )
    return rows
  }

  const hnswIndexes = async (table: string): Promise<string[]> => {
    const { rows } = await db.pg.query<{ index: string }>(
      `select format('%I.%I', n.nspname, c.relname) as index
       from pg_index i
       join pg_class c on c.oid = i.indexrelid
       join pg_namespace n on n.oid = c.relnamespace
       join pg_am a on a.oid = c.relam
       where i.indrelid = $1::regclass and a.amname = 'hnsw'
       order by 1`,
      [table],
    )
    return rows.map((r) => r.index)
  }

  const pass = async (all: boolean): Promise<VacuumPass> => {
    const started = performance.now()
    const due = (await tableStats()).filter(
      // Postgres' own autovacuum thresholds (autovacuum_vacuum_threshold, _scale_factor
      // and their analyze counterparts, at their defaults).
      (t) =>
        all ||
        t.dead >= 50 + 0.2 * t.live ||
        t.toastDead >= 50 + 0.2 * t.toastLive ||
        t.modified >= 50 + 0.1 * t.live,
    )
    const tables: VacuumedTable[] = []
    /**
     * One statement as its own job of the queue; how long it held the database, from when it
     * had it: its wait behind requests in the queue paused nobody.
     */
    const timed = async (sql: string) => {
      // Let the requests that queued behind the last statement go first.
      await new Promise((resolve) => setImmediate(resolve))
      return db.pg.withConnection(async (connection) => {
        const t0 = performance.now()
        await connection.exec(sql)
        return performance.now() - t0
      })
    }
    for (const t of due) {
      const pauses: number[] = []
      let rebuilt: string[]
      try {
        rebuilt = rebuildsHnsw(t) ? await hnswIndexes(t.table) : []
        // One statement each, so requests go between them.
        for (const index of rebuilt) pauses.push(await timed(`reindex index ${index}`))
        pauses.push(await timed(`vacuum ${t.table}`), await timed(`analyze ${t.table}`))
      } catch (error) {
        // A table dropped since the statistics were read; the rest still get their turn.
        console.error(`[localbase] vacuum ${t.table} failed:`, error)
        continue
      }
      const pauseMs = Math.max(...pauses)
      tables.push({
        table: t.table,
        deadRows: t.dead + t.toastDead,
        rebuilt,
        ms: pauses.reduce((sum, ms) => sum + ms, 0),
        pauseMs,
      })
      if (pauseMs > stats.longestPauseMs) {
        stats.longestPauseMs = pauseMs
        stats.longestPauseTable = t.table
      }
    }
    stats.passes++
    stats.tablesVacuumed += tables.length
    stats.lastPassAt = new Date().toISOString()
    const result = {
      tables,
      ms: performance.now() - started,
      longestPauseMs: Math.max(0, ...tables.map((t) => t.pauseMs)),
    }
    if (tables.length > 0) {
      const slowest = tables.reduce((a, b) => (b.pauseMs > a.pauseMs ? b : a))
      console.log(
        `[localbase] vacuumed ${tables.length} table(s) in ${Math.round(result.ms)} ms ` +
          `(longest pause ${Math.round(slowest.pauseMs)} ms, ${slowest.table})`,
      )
    }
    return result
  }

  const run = ({ all = false } = {}) => {
    // One pass at a time; a second caller shares it (an `all` pass waits for its turn).
    const previous = running
    if (previous && !all) return previous
    const next = (async () => {
      await previous?.catch(() => {})
      // Bulk: each table's vacuum waits while requests are queued for the database.
      return asBulk(() => withJobKey('upkeep vacuum', () => pass(all)))
    })()
    running = next
    void next.finally(() => {
      if (running === next) running = null
    })
    return next
  }
  const scheduled = (all: boolean) => () =>
    void run({ all }).catch((error) => console.error('[localbase] upkeep failed:', error))

  // A Postgres server runs its own autovacuum; only PGlite needs the schedule.
  const timers =
    db.engine.kind === 'pglite'
      ? [
          setInterval(scheduled(false), options.checkEveryMs ?? CHECK_EVERY_MS),
          setInterval(scheduled(true), options.fullEveryMs ?? FULL_EVERY_MS),
        ]
      : []
  for (const timer of timers) timer.unref()
  return {
    run,
    stats: () => ({ ...stats }),
    stop: async () => {
      for (const timer of timers) clearInterval(timer)
      await running?.catch(() => {})
    },
  }
}
