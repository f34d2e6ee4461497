import { expect } from 'vitest'
import type { Localbase } from '../../packages/localbase/src/index.ts'

/**
 * Checks of the term statistics the triggers keep (chunk_term_stats, workspace_chunk_stats)
 * against the same figures recomputed from the chunks of a workspace's ready documents, the
 * only ones search reads, and of any document counted in part on its way to ready
 * (20260101005700_chunk_stats_per_document.sql).
 */
export function termStatistics(stack: Pick<Localbase, 'db'>) {
  /**
   * The chunks counted, as `c`, for the workspace `$1`: those of ready documents, and those of
   * a document counted in part (document_stats_counts) below where its count has reached.
   */
  const counted = `(select c.* from public.chunks c join public.documents d on d.id = c.document_id
    left join public.document_stats_counts p on p.document_id = d.id
    where c.workspace_id = $1 and (d.status = 'ready' or c.ordinal < p.counted_below)) c`
  /** Their terms, as `t`. */
  const terms = `${counted} cross join lateral unnest(c.lexemes) t`

  /** The statistics the triggers keep, next to the same figures recomputed from the chunks. */
  async function statistics(workspace: string) {
    const q = async (sql: string) =>
      (await stack.db.pg.query(sql, [workspace])).rows.map((r) => JSON.stringify(r))
    return {
      kept: {
        terms: await q(`select term, chunk_freq from public.chunk_term_stats
                        where workspace_id = $1 order by term`),
        totals: await q(`select chunk_count::int as n, total_length::int as len
                         from public.workspace_chunk_stats where workspace_id = $1 and chunk_count > 0`),
      },
      recomputed: {
        terms: await q(`select t.lexeme as term, count(*)::int as chunk_freq
                        from ${terms} group by 1 order by 1`),
        totals: await q(`select count(*)::int as n, sum(c.lexeme_count)::int as len
                         from ${counted} having count(*) > 0`),
      },
    }
  }

  /** Each term's (frequency, length) pairs over the workspace's chunks, as [tf, len] arrays. */
  async function termPairs(workspace: string): Promise<Map<string, number[][]>> {
    const { rows } = await stack.db.pg.query<{ term: string; tf: number; len: number }>(
      `select t.lexeme as term, cardinality(t.positions) as tf, c.lexeme_count as len
       from ${terms}`,
      [workspace],
    )
    const pairs = new Map<string, number[][]>()
    for (const r of rows) pairs.set(r.term, [...(pairs.get(r.term) ?? []), [r.tf, r.len]])
    return pairs
  }

  /** The pairs no other pair beats on both counts (more frequent and no longer), by frequency. */
  function frontier(pairs: number[][]): number[][] {
    const best = new Map<number, number>()
    for (const [tf, len] of pairs) best.set(tf!, Math.min(len!, best.get(tf!) ?? Infinity))
    return [...best]
      .filter(([tf, len]) => ![...best].some(([t, l]) => t > tf && l <= len))
      .sort((a, b) => a[0] - b[0])
  }

  async function keptPeaks(workspace: string): Promise<Map<string, number[][]>> {
    const { rows } = await stack.db.pg.query<{ term: string; peaks: number[][] }>(
      'select term, peaks from public.chunk_term_stats where workspace_id = $1',
      [workspace],
    )
    return new Map(rows.map((r) => [r.term, r.peaks]))
  }

  /**
   * Counts and lengths exactly as recomputed from the chunks. Peaks are exactly the frontier
   * while chunks only come (`peaks: 'exact'`); once some went, they may keep pairs of chunks
   * gone, but still bound every chunk's pair and are a frontier themselves.
   */
  async function expectExactStatistics(workspace: string, peaks: 'exact' | 'bound' = 'bound') {
    const { kept, recomputed } = await statistics(workspace)
    expect(kept).toEqual(recomputed)
    const pairs = await termPairs(workspace)
    const stored = await keptPeaks(workspace)
    expect([...stored.keys()].sort()).toEqual([...pairs.keys()].sort())
    for (const [term, termPeaks] of stored) {
      expect(frontier(termPeaks), term).toEqual(termPeaks)
      if (peaks === 'exact') expect(termPeaks, term).toEqual(frontier(pairs.get(term)!))
      for (const [tf, len] of pairs.get(term)!)
        expect(
          termPeaks.some(([t, l]) => t! >= tf! && l! <= len!),
          `${term} (${tf}, ${len})`,
        ).toBe(true)
    }
  }

  return { statistics, keptPeaks, expectExactStatistics }
}
