// Rows as the change queue holds them (composite text output) turned into wal2json-style
// records (docs §4.4, trap §10.2.20): Postgres text output per column, numbers and booleans
// as JSON, json/jsonb embedded.

export type Column = { name: string; type: string; sqlType: string; pk: boolean }

export type Table = {
  relid: number
  schema: string
  table: string
  rls: boolean
  replicaFull: boolean
  columns: Column[]
}

/** Splits a record's text output, `(1,"a b",)`, into each column's text (null for NULL). */
export function parseComposite(text: string): (string | null)[] {
  const fields: (string | null)[] = []
  let i = 1
  for (;;) {
    if (text[i] === '"') {
      let value = ''
      i++
      for (;;) {
        const char = text[i]
        if (char === undefined) return fields
        if (char === '\\') {
          value += text[i + 1] ?? ''
          i += 2
        } else if (char === '"' && text[i + 1] === '"') {
          value += '"'
          i += 2
        } else if (char === '"') {
          i++
          break
        } else {
          value += char
          i++
        }
      }
      fields.push(value)
    } else {
      let end = i
      while (end < text.length - 1 && text[end] !== ',') end++
      fields.push(end === i ? null : text.slice(i, end))
      i = end
    }
    if (text[i] !== ',') return fields
    i++
  }
}

const numeric = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid'])

function jsonValue(type: string, text: string | null): unknown {
  if (text === null) return null
  if (type === 'bool') return text === 't'
  if (type === 'json' || type === 'jsonb') return JSON.parse(text)
  if (numeric.has(type)) {
    const n = Number(text)
    return Number.isFinite(n) && (type !== 'int8' || Number.isSafeInteger(n)) ? n : text
  }
  return text
}

/** The record JSON for the given column texts; `keep` limits which columns appear. */
export function toRecord(
  columns: Column[],
  texts: (string | null)[],
  keep: (column: Column) => boolean = () => true,
): Record<string, unknown> {
  const record: Record<string, unknown> = {}
  columns.forEach((column, i) => {
    if (keep(column)) record[column.name] = jsonValue(column.type, texts[i] ?? null)
  })
  return record
}
