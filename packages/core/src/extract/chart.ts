import { markdownTable } from './markdown-table.ts'
import { child, children, descendants, path } from './ooxml.ts'

/** A chart's title, kind and series (categories by series values) where the file caches them. */
export function chartText(chart: Element | undefined): string {
  const plot = path(chart, 'chart', 'plotArea')
  if (!plot) return ''
  const blocks: string[] = []
  const title = descendants(path(chart, 'chart', 'title'), 't')
    .map((t) => t.textContent ?? '')
    .join('')
    .trim()
  if (title) blocks.push(title)
  for (const kind of children(plot).filter((el) => el.localName.endsWith('Chart'))) {
    const series = children(kind, 'ser')
    const name = kind.localName.replace(/3D/, ' 3D').replace(/Chart$/, ' chart')
    blocks.push(name.charAt(0).toUpperCase() + name.slice(1))
    const categories =
      series.length > 0 ? cached(child(series[0], 'cat') ?? child(series[0], 'xVal')) : []
    const columns = series.map((ser, i) => ({
      name: seriesName(child(ser, 'tx')) || `Series ${i + 1}`,
      values: cached(child(ser, 'val') ?? child(ser, 'yVal')),
    }))
    if (columns.length === 0) continue
    const rows = Math.max(categories.length, ...columns.map((column) => column.values.length))
    const grid = [['', ...columns.map((column) => column.name)]]
    for (let r = 0; r < rows; r++) {
      grid.push([categories[r] ?? '', ...columns.map((column) => column.values[r] ?? '')])
    }
    blocks.push(rows > 0 ? markdownTable(grid) : columns.map((column) => column.name).join(', '))
  }
  return blocks.join('\n\n')
}

/**
 * A series name as Excel shows it. A name typed as a literal is a formula string, `"Costs"`,
 * and some writers cache it quoted too (or not at all): the quotes are the formula's, not the
 * name's, and a doubled quote inside stands for one.
 */
function seriesName(tx: Element | undefined): string {
  const unquoted = (text: string) =>
    /^"((?:[^"]|"")*)"$/.exec(text.trim())?.[1]?.replace(/""/g, '"')
  const name = cached(tx).join(' ')
  if (name) return unquoted(name) ?? name
  // No cache: the formula itself, when it is a literal rather than a cell reference.
  return unquoted(path(tx, 'strRef', 'f')?.textContent ?? '') ?? ''
}

/** The cached point values under a series element (strCache, numCache or a literal `v`). */
function cached(element: Element | undefined): string[] {
  if (!element) return []
  const points = descendants(element, 'pt')
  if (points.length === 0) return descendants(element, 'v').map((v) => v.textContent ?? '')
  const values: string[] = []
  for (const point of points)
    values[Number(point.getAttribute('idx')) || 0] = child(point, 'v')?.textContent ?? ''
  return Array.from(values, (value) => value ?? '')
}
