// Generated from packages/core/src/extract/gfm-table.ts by `npm run sync:core`: edit that file, not this one.
import type TurndownService from 'turndown'

// Cell markers left by the cell rule for the table rule to read back: private-use
// characters, and any in the cell text itself are removed first.
const CELL_OPEN = '\ue000'
const CELL_CLOSE = '\ue001'
const CELL = /\ue000([^\ue000\ue001]*)\ue001/g

/**
 * GFM tables for turndown (which has none built in). Cells become markers; the table rule then
 * lays them on a grid honouring colspan and rowspan (a spanned value repeats in every slot it
 * covers, so each column keeps its value) and prints one header row plus the separator.
 */
export function addGfmTables(service: TurndownService): void {
  service.addRule('tableCell', { filter: ['th', 'td'], replacement: cellMarker })
  service.addRule('tableRow', { filter: 'tr', replacement: (content) => content })
  service.addRule('tableSection', {
    filter: ['thead', 'tbody', 'tfoot'],
    replacement: (content) => content,
  })
  service.addRule('tableCaption', { filter: 'caption', replacement: () => '' })
  service.addRule('table', {
    filter: 'table',
    replacement: (content, node) => `\n\n${renderTable(node as HTMLElement, content)}\n\n`,
  })
}

/** Turndown sends empty cells to blankReplacement instead of their rule: route them back here. */
export function isTableCell(node: TurndownService.Node): boolean {
  return node.nodeName === 'TD' || node.nodeName === 'TH'
}

export function cellMarker(content: string): string {
  const text = content
    .replace(/\s*\n+\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim()
  return `${CELL_OPEN}${text.replace(/[\ue000\ue001]/g, '')}${CELL_CLOSE}`
}

function renderTable(table: HTMLElement, content: string): string {
  const texts = [...content.matchAll(CELL)].map((match) => match[1]!)
  // A table inside a cell cannot be a Markdown table: its cells become words of the outer cell.
  if (insideCell(table)) return texts.filter((text) => text !== '').join(' ')
  const caption = Array.from(table.childNodes).find((child) => child.nodeName === 'CAPTION')
  const grid: string[][] = []
  let next = 0
  ownRows(table).forEach((row, r) => {
    grid[r] ??= []
    let column = 0
    for (const cell of Array.from(row.childNodes) as HTMLElement[]) {
      if (!isTableCell(cell)) continue
      const text = texts[next++] ?? ''
      while (grid[r]![column] !== undefined) column++
      const rows = span(cell, 'rowspan')
      const columns = span(cell, 'colspan')
      for (let dr = 0; dr < rows; dr++) {
        grid[r + dr] ??= []
        for (let dc = 0; dc < columns; dc++) grid[r + dr]![column + dc] = text
      }
      column += columns
    }
  })
  if (grid.length === 0) return texts.join(' ')
  const width = Math.max(1, ...grid.map((row) => row.length))
  const lines = grid.map(
    (row) => `| ${Array.from({ length: width }, (_, c) => row[c] ?? '').join(' | ')} |`,
  )
  lines.splice(1, 0, `|${' --- |'.repeat(width)}`)
  const title = caption?.textContent?.trim()
  return (title ? `${title}\n\n` : '') + lines.join('\n').replace(/ {2,}\|/g, ' |')
}

function insideCell(node: HTMLElement): boolean {
  for (let at = node.parentNode; at; at = at.parentNode)
    if (isTableCell(at as HTMLElement)) return true
  return false
}

function span(cell: HTMLElement, attribute: 'rowspan' | 'colspan'): number {
  return Math.min(Math.max(Number(cell.getAttribute(attribute)) || 1, 1), 100)
}

/** The table's own rows, not those of tables nested in its cells. */
function ownRows(table: HTMLElement): HTMLElement[] {
  // getElementsByTagName: a query both domino (turndown's DOM in Node) and browsers offer.
  return (Array.from(table.getElementsByTagName('tr')) as HTMLElement[]).filter((row) => {
    let at = row.parentNode
    while (at && at.nodeName !== 'TABLE') at = at.parentNode
    return at === table
  })
}
