import { useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { useNow } from './use-now'

/**
 * How far the database's clock is ahead of this browser's (ms): its time against the middle of
 * the round trip, so off by at most half of it. Read once (clocks drift by far less than the
 * interrupted rule's minute), and again when the query goes stale.
 */
async function getClockOffset(signal: AbortSignal): Promise<number> {
  const sent = Date.now()
  const { data, error } = await supabase.rpc('database_now').abortSignal(signal)
  const received = Date.now()
  if (error) throw error
  return Date.parse(data) - (sent + received) / 2
}

/**
 * The database's time (ms since the epoch), refreshed every `everyMs`, for what ages by a row's
 * updated_at (the interrupted rule): this browser's clock may be minutes off. null until known,
 * so that nothing is called interrupted on a guess; this browser's clock if it cannot be read.
 */
export function useDatabaseNow(everyMs: number): number | null {
  const offset = useQuery({
    queryKey: ['database-clock-offset'],
    queryFn: ({ signal }) => getClockOffset(signal),
    staleTime: 10 * 60_000,
  })
  const now = useNow(everyMs)
  if (offset.isError) return now
  return offset.data === undefined ? null : now + offset.data
}
