import TurndownService from 'turndown'

/** HTML → Markdown: ATX headings, fenced code, GFM tables, no images (their bytes are no text). */
export function htmlToMarkdown(html: string): string {
  const markdown = turndown().turndown(html)
  return markdown
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

let service: TurndownService | undefined

function turndown(): TurndownService {
  if (service) return service
  service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    // Turndown hands empty elements here instead of to their rule: empty cells must stay cells.
    blankReplacement: (_content, node) =>
      isCell(node) ? cell('', node) : (node as { isBlock?: boolean }).isBlock ? '\n\n' : '',
  })
  service.remove(['script', 'style', 'noscript', 'template'])
  service.addRule('image', { filter: 'img', replacement: () => '' })
  service.addRule('tableCell', { filter: ['th', 'td'], replacement: cell })
  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const table = closestTable(node)
      const rows = table ? rowsOf(table) : []
      if (rows[0] !== node) return `\n${content}`
      const columns = Math.max(...rows.map(columnCount))
      return `\n${content}${'  |'.repeat(columns - columnCount(node))}\n|${' --- |'.repeat(columns)}`
    },
  })
  service.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (c) => c })
  service.addRule('table', { filter: 'table', replacement: (c) => `\n\n${c.trim()}\n\n` })
  return service
}

/** One GFM cell: single-line, pipes escaped, a colspan repeated as empty cells. */
function cell(content: string, node: TurndownService.Node): string {
  const text = content
    .replace(/\s*\n+\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim()
  const first = (node as HTMLElement).previousElementSibling === null ? '|' : ''
  return `${first} ${text} |${'  |'.repeat(span(node as HTMLElement) - 1)}`
}

function isCell(node: TurndownService.Node): boolean {
  return node.nodeName === 'TD' || node.nodeName === 'TH'
}

function span(element: HTMLElement): number {
  return Math.min(Math.max(Number(element.getAttribute('colspan')) || 1, 1), 100)
}

function columnCount(row: HTMLElement): number {
  let count = 0
  for (const child of Array.from(row.childNodes) as HTMLElement[]) {
    if (isCell(child)) count += span(child)
  }
  return count
}

function closestTable(node: TurndownService.Node): HTMLElement | undefined {
  for (let at = node.parentNode; at; at = at.parentNode) {
    if (at.nodeName === 'TABLE') return at as HTMLElement
  }
  return undefined
}

/** The table's own rows (not those of tables nested in its cells), remembered per table. */
const rowsCache = new WeakMap<object, HTMLElement[]>()

function rowsOf(table: HTMLElement): HTMLElement[] {
  let rows = rowsCache.get(table)
  if (!rows) {
    // getElementsByTagName: the one query both domino (turndown in Node) and browsers offer.
    const all = Array.from(table.getElementsByTagName('tr')) as HTMLElement[]
    rows = all.filter((row) => closestTable(row) === table)
    rowsCache.set(table, rows)
  }
  return rows
}
