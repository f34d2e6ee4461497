/** The GFM tables of a Markdown text as grids of trimmed cell texts, delimiter rows left out. */
export function markdownTables(markdown: string): string[][][] {
  const tables: string[][][] = []
  let current: string[][] = []
  for (const line of [...markdown.split('\n'), '']) {
    const trimmed = line.trim()
    if (trimmed.startsWith('|')) {
      if (/^\|[\s:|-]+\|$/.test(trimmed) && current.length === 1) continue
      current.push(
        trimmed
          .replace(/^\||\|$/g, '')
          .split(/(?<!\\)\|/)
          .map((cell) => cell.replace(/\\\|/g, '|').trim()),
      )
    } else if (current.length > 0) {
      tables.push(current)
      current = []
    }
  }
  return tables
}

/**
 * Table cell accuracy: the share of the truth's non-empty cells found at the same row and column
 * of the extracted table that matches it best (each truth table against every extracted one).
 * Undefined when the truth has no table cells.
 */
export function tableCellAccuracy(extracted: string, truth: string): number | undefined {
  const ours = markdownTables(extracted)
  let right = 0
  let total = 0
  for (const table of markdownTables(truth)) {
    const cells = table
      .flatMap((row, r) => row.map((text, c) => ({ r, c, text })))
      .filter((cell) => cell.text !== '')
    total += cells.length
    right += Math.max(
      0,
      ...ours.map((other) => cells.filter(({ r, c, text }) => other[r]?.[c] === text).length),
    )
  }
  return total === 0 ? undefined : right / total
}
