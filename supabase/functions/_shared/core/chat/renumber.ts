// Generated from packages/core/src/chat/renumber.ts by `npm run sync:core`: edit that file, not this one.
import type { Source } from './types.ts'

// [1], [2, 3] or [1][4]; the numbers of one bracket are separated by commas.
const marker = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g

/**
 * The answer and its sources numbered in the order the answer first cites them (1, 2, 3…),
 * so the sources panel lists them in the same order with no gaps. Sources the answer does
 * not cite follow in their own order; numbers without a source are left as written (the
 * citation check reports them).
 */
export function renumberByFirstUse(
  answer: string,
  sources: Source[],
): { answer: string; sources: Source[] } {
  const known = new Set(sources.map((s) => s.n))
  const order: number[] = []
  for (const [, list] of answer.matchAll(marker))
    for (const n of list!.split(',').map(Number))
      if (known.has(n) && !order.includes(n)) order.push(n)
  for (const s of sources) if (!order.includes(s.n)) order.push(s.n)
  const renumbered = new Map(order.map((n, i) => [n, i + 1]))
  const rewritten = answer.replace(marker, (_whole, list: string) => {
    const numbers = list.split(',').map((n) => Number(n.trim()))
    return `[${numbers.map((n) => renumbered.get(n) ?? n).join(', ')}]`
  })
  const bySource = new Map(sources.map((s) => [s.n, s]))
  return {
    answer: rewritten,
    sources: order.map((n, i) => ({ ...bySource.get(n)!, n: i + 1 })),
  }
}
