// Generated from packages/core/src/extract/markdown-table.ts by `npm run sync:core`: edit that file, not this one.
/** A grid of cell texts as a GFM table: the first row is the header, pipes escaped. */
export function markdownTable(grid: string[][]): string {
  const width = Math.max(1, ...grid.map((row) => row.length))
  const cell = (text: string | undefined) =>
    (text ?? '')
      .replace(/\s*\n+\s*/g, ' ')
      .replace(/\|/g, '\\|')
      .trim()
  const lines = grid.map(
    (row) => `| ${Array.from({ length: width }, (_, c) => cell(row[c])).join(' | ')} |`,
  )
  lines.splice(1, 0, `|${' --- |'.repeat(width)}`)
  return lines.join('\n').replace(/ {2,}\|/g, ' |')
}
