import { ApiError } from './errors.ts'
import type { ParsedQuery } from './parse-request.ts'
import type { Preferences } from './preferences.ts'
import type { Table } from './schema-cache.ts'
import { type JsonObject, isObject, rowsOf } from './body.ts'
import { whereSql } from './read.ts'
import type { SelectBuilder, Source } from './sql-select.ts'
import { compileCond } from './sql-filter.ts'
import { ident, table as tableSql } from './sql.ts'

// INSERT / upsert / UPDATE / DELETE as one data-modifying statement with RETURNING.
// With return=minimal nothing is read back, so RLS SELECT policies do not apply (as PostgREST).

export type Mutation = 'insert' | 'update' | 'delete'

const noRows = (target: string) => `select * from ${target} where false`

function checkColumns(table: Table, columns: string[]): void {
  for (const name of columns) {
    if (!table.columns.has(name)) {
      throw new ApiError(
        400,
        'PGRST204',
        `Could not find the '${name}' column of '${table.name}' in the schema cache`,
      )
    }
  }
}

/**
 * The statement for the `pgrst_m` CTE; `returning` names what the response needs. `body` is
 * the request body parsed (to check its shape and columns), `text` the same body as sent: that
 * is what Postgres gets, as PostgREST passes it, so numbers keep every digit (a bigint past
 * 2^53, a long numeric) and a large insert is not encoded to JSON a second time.
 */
export function mutationSql(
  b: SelectBuilder,
  kind: Mutation,
  table: Table,
  body: unknown,
  text: string,
  query: ParsedQuery,
  prefs: Preferences,
  returning: string,
): string {
  const target = tableSql(table.schema, table.name)
  const source: Source = { from: `${target} t0`, alias: 't0', table, label: table.name }
  if (kind === 'insert') {
    const rows = rowsOf(body)
    // One object is inserted as an array of one, as rowsOf reads it.
    const json = Array.isArray(body) ? text : `[${text}]`
    return insertSql(b, table, rows, json, query, prefs, returning)
  }
  const scope = { column: b.field.bind(b, source), embedPresent: () => null }
  const where = whereSql(query.root.filters.map((c) => compileCond(c, scope, b.params)))
  if (kind === 'delete') return `delete from ${target} as t0 ${where} returning ${returning}`
  // Nothing to set ({}, [] or [{}]): PostgREST runs no update and answers as if no row matched.
  // The filters' parameters are bound all the same, so the statement must still name them.
  if (isNothing(body))
    return `select t0.* from ${target} as t0 ${where ? `${where} and` : 'where'} false`
  if (!isObject(body)) throw new ApiError(400, 'PGRST102', 'Empty or invalid json')
  const columns = Object.keys(body)
  checkColumns(table, columns)
  const set = columns.map((c) => `${ident(c)} = _b.${ident(c)}`).join(', ')
  const row = `json_populate_record(null::${target}, ${b.params.add(text)}::json) _b`
  return `update ${target} as t0 set ${set} from ${row} ${where} returning ${returning}`
}

function isNothing(body: unknown): boolean {
  const rows = Array.isArray(body) ? body : [body]
  return rows.every((row) => isObject(row) && Object.keys(row).length === 0)
}

function insertSql(
  b: SelectBuilder,
  table: Table,
  rows: JsonObject[],
  json: string,
  query: ParsedQuery,
  prefs: Preferences,
  returning: string,
): string {
  const target = tableSql(table.schema, table.name)
  const columns = query.columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))]
  checkColumns(table, columns)
  if (rows.length === 0) return noRows(target)
  const list = columns.map(ident).join(', ')
  const payload = columns.length ? b.params.add(json) : ''
  let insert: string
  if (columns.length === 0) {
    insert = `insert into ${target} as t0 default values`
  } else if (prefs.missingDefault) {
    const values = rows.map((row, i) => {
      const cells = columns.map((c) =>
        c in row
          ? `(json_populate_record(null::${target}, ${payload}::json->${i})).${ident(c)}`
          : 'default',
      )
      return `(${cells.join(', ')})`
    })
    insert = `insert into ${target} as t0 (${list}) values ${values.join(', ')}`
  } else {
    insert = `insert into ${target} as t0 (${list}) select ${list} from json_populate_recordset(null::${target}, ${payload}::json)`
  }
  return `${insert} ${conflictSql(table, columns, query, prefs)} returning ${returning}`
}

function conflictSql(table: Table, columns: string[], query: ParsedQuery, prefs: Preferences) {
  if (!prefs.resolution) return ''
  const keys = query.onConflict ?? table.primaryKey
  checkColumns(table, keys)
  if (keys.length === 0) return ''
  const on = `on conflict (${keys.map(ident).join(', ')})`
  if (prefs.resolution === 'ignore-duplicates' || columns.length === 0) return `${on} do nothing`
  return `${on} do update set ${columns.map((c) => `${ident(c)} = excluded.${ident(c)}`).join(', ')}`
}
