import type { Database } from '../db/database.ts'
import { withJobKey } from '../db/work-queue.ts'

/** How often the reaper looks for documents whose import stopped. */
const REAP_EVERY_MS = 60_000

/**
 * Calls the project's `public.reap_interrupted_documents(stale_after)` (Sourcebook's crash
 * recovery, a migration) on start and then every minute, so documents left 'processing' by an
 * import that died (this server killed mid-import included) become failed and lose their
 * partial chunks. localbase serves any Supabase project folder: without the function it does
 * nothing. A failing pass is logged and the next one tries again. Returns the stop function.
 */
export async function startReaper(db: Database, staleAfterSeconds: number): Promise<() => void> {
  const found = await db.pg.query<{ ok: boolean }>(
    `select to_regprocedure('public.reap_interrupted_documents(interval)') is not null as ok`,
  )
  if (!found.rows[0]?.ok) return () => {}
  const reap = async () => {
    try {
      const { rows } = await withJobKey('upkeep reap interrupted', () =>
        db.pg.query<{ reaped: number }>(
          'select public.reap_interrupted_documents(make_interval(secs => $1)) as reaped',
          [staleAfterSeconds],
        ),
      )
      const reaped = rows[0]?.reaped ?? 0
      if (reaped > 0) console.log(`[localbase] ${reaped} interrupted import(s) marked failed`)
    } catch (error) {
      console.error('[localbase] reaping interrupted imports failed:', error)
    }
  }
  await reap()
  const timer = setInterval(() => void reap(), REAP_EVERY_MS)
  timer.unref()
  return () => clearInterval(timer)
}
