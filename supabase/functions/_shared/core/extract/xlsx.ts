// Generated from packages/core/src/extract/xlsx.ts by `npm run sync:core`: edit that file, not this one.
import { chartText } from './chart.ts'
import { markdownTable } from './markdown-table.ts'
import { builtInFormat, formatNumber } from './number-format.ts'
import { child, children, descendants, openPackage, path, type OoxmlPackage } from './ooxml.ts'

const WORKSHEET = '/relationships/worksheet'
const CHARTSHEET = '/relationships/chartsheet'

/**
 * XLSX/XLSM → Markdown: each visible sheet a `## name` section holding its used range as GFM
 * tables (split at empty rows and columns), then its charts' titles, kinds and series (a chart
 * sheet has charts only). Values are shown as the sheet formats them, formulas by their cached
 * values, a merged cell's value in every slot it covers. A table's first row is its header when
 * it is all text; otherwise the columns are numbered (Column 1, …).
 */
export async function xlsxToMarkdown(bytes: Uint8Array, maxUnzippedBytes: number): Promise<string> {
  const pkg = await openPackage(
    bytes,
    'xl/workbook.xml',
    'an Excel workbook (.xlsx)',
    maxUnzippedBytes,
  )
  const workbook = await pkg.xml('xl/workbook.xml')
  const rels = await pkg.relationships('xl/workbook.xml')
  const date1904 = /^(1|true)$/.test(child(workbook, 'workbookPr')?.getAttribute('date1904') ?? '')
  const strings = await sharedStrings(pkg, rels)
  const styles = await cellFormats(pkg, rels)
  const sections: string[] = []
  for (const sheet of children(path(workbook, 'sheets'), 'sheet')) {
    if (/hidden/i.test(sheet.getAttribute('state') ?? '')) continue
    const rel = rels.get(relIdOf(sheet))
    // Chart sheets hold charts only; dialog and macro sheets nothing to read.
    if (!rel || !(rel.type.endsWith(WORKSHEET) || rel.type.endsWith(CHARTSHEET))) continue
    const grid = rel.type.endsWith(WORKSHEET)
      ? readSheet(await pkg.xml(rel.target), strings, styles, date1904)
      : []
    const blocksText = [...blocks(grid).map(blockMarkdown), ...(await sheetCharts(pkg, rel.target))]
    if (blocksText.length === 0) continue
    sections.push(`## ${sheet.getAttribute('name') ?? 'Sheet'}\n\n${blocksText.join('\n\n')}`)
  }
  return sections.join('\n\n')
}

const relIdOf = (element: Element) =>
  element.getAttributeNS(
    'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
    'id',
  ) ??
  element.getAttribute('r:id') ??
  ''

/** The charts drawn on a sheet (its drawing's charts), as their title, kind and series table. */
async function sheetCharts(pkg: OoxmlPackage, sheetPath: string): Promise<string[]> {
  const texts: string[] = []
  for (const drawing of (await pkg.relationships(sheetPath)).values()) {
    if (!drawing.type.endsWith('/relationships/drawing')) continue
    const charts = [...(await pkg.relationships(drawing.target)).values()]
      .filter((rel) => rel.type.endsWith('/relationships/chart'))
      .map((rel) => rel.target)
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    for (const chart of charts) {
      const text = chartText(await pkg.xml(chart))
      if (text) texts.push(text)
    }
  }
  return texts
}

function partOfType(rels: Map<string, { target: string; type: string }>, suffix: string) {
  return [...rels.values()].find((rel) => rel.type.endsWith(suffix))?.target
}

async function sharedStrings(
  pkg: OoxmlPackage,
  rels: Map<string, { target: string; type: string }>,
) {
  const part = partOfType(rels, '/relationships/sharedStrings') ?? 'xl/sharedStrings.xml'
  return children(await pkg.xml(part), 'si').map(richText)
}

/** A string item's text: its runs, without the phonetic guides (rPh) Japanese sheets carry. */
function richText(item: Element): string {
  const direct = child(item, 't')
  if (direct) return direct.textContent ?? ''
  return children(item, 'r')
    .map((run) => child(run, 't')?.textContent ?? '')
    .join('')
}

/** The number format code of each cell style index. */
async function cellFormats(pkg: OoxmlPackage, rels: Map<string, { target: string; type: string }>) {
  const styles = await pkg.xml(partOfType(rels, '/relationships/styles') ?? 'xl/styles.xml')
  const custom = new Map<number, string>()
  for (const format of children(child(styles, 'numFmts'), 'numFmt')) {
    custom.set(Number(format.getAttribute('numFmtId')), format.getAttribute('formatCode') ?? '')
  }
  return children(child(styles, 'cellXfs'), 'xf').map((xf) => {
    const id = Number(xf.getAttribute('numFmtId') ?? 0)
    return custom.get(id) ?? builtInFormat(id) ?? 'General'
  })
}

/** Column index (0-based) and row index of an A1 reference. */
function position(ref: string): [number, number] | undefined {
  const match = /^([A-Z]+)(\d+)$/i.exec(ref)
  if (!match) return undefined
  let column = 0
  for (const letter of match[1]!.toUpperCase()) column = column * 26 + letter.charCodeAt(0) - 64
  return [column - 1, Number(match[2]) - 1]
}

function readSheet(
  sheet: Element | undefined,
  strings: string[],
  styles: string[],
  date1904: boolean,
) {
  const grid: string[][] = []
  let nextRow = 0
  for (const row of children(path(sheet, 'sheetData'), 'row')) {
    const r = Number(row.getAttribute('r') ?? nextRow + 1) - 1
    nextRow = r + 1
    let nextColumn = 0
    for (const cell of children(row, 'c')) {
      const [c] = position(cell.getAttribute('r') ?? '') ?? [nextColumn]
      nextColumn = c + 1
      const value = cellValue(cell, strings, styles, date1904)
      if (value === '') continue
      grid[r] ??= []
      grid[r]![c] = value
    }
  }
  for (const merge of descendants(child(sheet, 'mergeCells'), 'mergeCell')) {
    const [from, to] = (merge.getAttribute('ref') ?? '').split(':').map(position)
    if (!from || !to) continue
    const value = grid[from[1]]?.[from[0]]
    if (value === undefined) continue
    for (let r = from[1]; r <= Math.min(to[1], from[1] + 10_000); r++) {
      for (let c = from[0]; c <= Math.min(to[0], from[0] + 1_000); c++) {
        grid[r] ??= []
        grid[r]![c] = value
      }
    }
  }
  return grid
}

function cellValue(cell: Element, strings: string[], styles: string[], date1904: boolean): string {
  const type = cell.getAttribute('t') ?? 'n'
  if (type === 'inlineStr') return richText(child(cell, 'is') ?? cell).trim()
  const raw = child(cell, 'v')?.textContent ?? ''
  if (raw === '') return ''
  if (type === 's') return (strings[Number(raw)] ?? '').trim()
  if (type === 'b') return raw === '1' ? 'TRUE' : 'FALSE'
  if (type === 'str' || type === 'e') return raw.trim()
  const number = Number(raw)
  if (Number.isNaN(number)) return raw.trim()
  const format = styles[Number(cell.getAttribute('s') ?? 0)] ?? 'General'
  return formatNumber(number, format, date1904)
}

/**
 * The used range split into tables: at empty rows, then each block at the columns empty in all
 * of its rows (tables side by side), each table without its empty rows.
 */
function blocks(grid: string[][]): string[][][] {
  const found: string[][][] = []
  let current: string[][] = []
  const flush = () => {
    if (current.length > 0) found.push(...columnGroups(current))
    current = []
  }
  for (let r = 0; r < grid.length; r++) {
    const row = grid[r]
    if (!row || row.every((value) => value === undefined)) flush()
    else current.push(row)
  }
  flush()
  return found
}

function columnGroups(rows: string[][]): string[][][] {
  const width = Math.max(...rows.map((row) => row.length))
  const groups: number[][] = []
  let group: number[] = []
  for (let c = 0; c <= width; c++) {
    if (c < width && rows.some((row) => row[c] !== undefined)) group.push(c)
    else if (group.length > 0) {
      groups.push(group)
      group = []
    }
  }
  return groups.map((columns) =>
    rows
      .filter((row) => columns.some((c) => row[c] !== undefined))
      .map((row) => columns.map((c) => row[c] ?? '')),
  )
}

/**
 * A block as a table. A first row that is one value across the whole width (a title merged over
 * the table) is the table's caption, written above it, not its header.
 */
function blockMarkdown(block: string[][]): string {
  const distinct = new Set(block[0]!.filter((value) => value !== ''))
  const titled = block.length > 2 && block[0]!.length > 1 && distinct.size === 1
  if (!titled) return markdownTable(withHeader(block))
  return `${[...distinct][0]}\n\n${markdownTable(withHeader(block.slice(1)))}`
}

const NUMERIC = /^[-+(]?[$€£¥]?[\d.,]+%?\)?$|^\d{4}-\d{2}-\d{2}/

/** The block itself when its first row reads as a header (text only), else lettered columns. */
function withHeader(block: string[][]): string[][] {
  const first = block[0]!
  const filled = first.filter((value) => value !== '')
  const isHeader =
    block.length > 1 && filled.length > 0 && filled.every((value) => !NUMERIC.test(value))
  if (isHeader || block.length === 1) return block
  return [first.map((_, c) => `Column ${c + 1}`), ...block]
}
