// Generated from packages/core/src/extract/csv.ts by `npm run sync:core`: edit that file, not this one.
/** Parses CSV (RFC 4180: quoted fields may hold delimiters, quotes as "", and line breaks). */
export function parseCsv(text: string, delimiter = sniffDelimiter(text)): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (quoted) {
      if (char !== '"') field += char
      else if (text[i + 1] === '"') field += text[++i]
      else quoted = false
    } else if (char === '"' && field === '') quoted = true
    else if (char === delimiter) {
      row.push(field)
      field = ''
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else field += char
  }
  if (field !== '' || row.length > 0) rows.push([...row, field])
  return rows.filter((r) => r.some((cell) => cell.trim() !== ''))
}

/** The most frequent of comma, semicolon and tab outside quotes on the first line. */
function sniffDelimiter(text: string): string {
  const firstLine = text
    .slice(0, 4096)
    .split(/\r?\n/, 1)[0]!
    .replace(/"[^"]*"/g, '')
  const counts = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length - 1] as const)
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0]
}

/**
 * Renders each data row as one record line, "col: value; col2: value", so every chunk of a big
 * table still says what its numbers are (no header line per chunk is needed). Records are
 * separated by a blank line, the paragraph break every reader of the text (chunker, sentence
 * splitter, snippets) already respects, so no passage or answer sentence runs two records
 * together. Empty values are left out.
 */
export function csvToText(text: string): { text: string; warnings: string[] } {
  const [header = [], ...records] = parseCsv(text)
  const names = header.map((name, i) => name.trim() || `column ${i + 1}`)
  let ragged = 0
  const lines = records.map((record) => {
    if (record.length !== names.length) ragged++
    return record
      .map((value, i) => [names[i] ?? `column ${i + 1}`, value.trim()] as const)
      .filter(([, value]) => value !== '')
      .map(([name, value]) => `${name}: ${value.replace(/\s+/g, ' ')}`)
      .join('; ')
  })
  const warnings =
    ragged > 0 ? [`${ragged} rows do not have the header's ${names.length} columns`] : []
  return { text: (records.length === 0 ? names.join('; ') : lines.join('\n\n')).trim(), warnings }
}
