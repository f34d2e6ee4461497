import type { ImportTotals } from './run-import.ts'

const count = (n: number) => n.toLocaleString('en-US')
const perSecond = (pages: number, ms: number) => (ms > 0 ? (pages * 1000) / ms : 0)

/** One line of progress: files done/total, pages, chunks, duplicates, failures. */
export function progressLine(totals: ImportTotals, last?: string): string {
  const width = String(totals.total).length
  return (
    `[${String(totals.done).padStart(width)}/${totals.total}] ${count(totals.pages)} pages, ` +
    `${count(totals.chunks)} chunks, ${totals.duplicates.length} duplicates, ` +
    `${totals.failures.length} failed` +
    (last ? `  ${last}` : '')
  )
}

/** The closing summary, a few lines of plain text. */
export function summary(totals: ImportTotals, skipped: string[], elapsedMs: number): string {
  const seconds = elapsedMs / 1000
  const lines = [
    `Imported ${totals.ready} of ${totals.total} files in ${seconds.toFixed(1)} s: ` +
      `${count(totals.pages)} pages, ${count(totals.chunks)} chunks, ` +
      `${perSecond(totals.pages, elapsedMs).toFixed(1)} pages/s`,
    `  duplicates: ${totals.duplicates.length}` +
      (totals.duplicates.length ? ` (${totals.duplicates.join(', ')})` : ''),
    `  failures:   ${totals.failures.length}`,
    ...totals.failures.map((f) => `    ${f.name}: ${f.error}`),
  ]
  if (totals.done < totals.total) {
    lines.push(`  not started (interrupted): ${totals.total - totals.done}`)
  }
  if (skipped.length > 0) {
    lines.push(`  skipped (unsupported type): ${skipped.length}`, ...skipped.map((s) => `    ${s}`))
  }
  return lines.join('\n')
}
