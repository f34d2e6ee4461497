import { ApiError } from './errors.ts'
import { type Mutation, mutationSql } from './mutate.ts'
import { parseQuery } from './parse-request.ts'
import { checkMaxAffected, pageOf, type Plan, type RestRequest, strictMaxAffected } from './plan.ts'
import { readSql } from './read.ts'
import { checkSingular, mutationOutcome, readOutcome } from './respond.ts'
import type { SchemaCache, Table } from './schema-cache.ts'
import { SelectBuilder, type Source } from './sql-select.ts'
import { ident, Params, table as tableSql } from './sql.ts'
import { parseJsonBody } from './body.ts'
import { isBulkWrite } from './bulk-write.ts'

// Requests on /rest/v1/<table>: reads, and mutations whose rows may be read back with embeds.

const mutations: Record<string, Mutation> = { POST: 'insert', PATCH: 'update', DELETE: 'delete' }

export function findTable(cache: SchemaCache, schema: string, name: string): Table {
  const table = cache.tables.get(`${schema}.${name}`)
  if (!table) {
    throw new ApiError(
      404,
      'PGRST205',
      `Could not find the table '${schema}.${name}' in the schema cache`,
    )
  }
  return table
}

export function tablePlan(cache: SchemaCache, req: RestRequest): Plan {
  const table = findTable(cache, req.schema, req.name)
  const query = parseQuery(req.params)
  const b = new SelectBuilder(cache, new Params())
  const { prefs, output } = req
  const base = { readOnly: false, rollback: prefs.rollback }
  if (req.method === 'GET' || req.method === 'HEAD') {
    const source: Source = {
      from: `${tableSql(table.schema, table.name)} t0`,
      alias: 't0',
      table,
      label: table.name,
    }
    const page = pageOf(query.root, req.headers.get('range'), req.maxRows)
    const opts = {
      page,
      count: prefs.count !== null,
      stripNulls: output.stripNulls,
      csv: output.kind === 'csv',
    }
    const sql = readSql(b, query.root, source, opts)
    const head = req.method === 'HEAD'
    return {
      ...base,
      readOnly: true,
      sql,
      values: b.params.values,
      finish: (row) => readOutcome(row, output, page, head),
      refusable: true,
    }
  }
  const kind = mutations[req.method]
  if (!kind) {
    throw new ApiError(405, 'PGRST117', `Unsupported HTTP method: ${req.method}`)
  }
  const body = kind === 'delete' ? null : parseJsonBody(req.body)
  const representation = prefs.return === 'representation'
  const location =
    kind === 'insert' && prefs.return === 'headers-only' && table.primaryKey.length > 0
  const returning = representation
    ? 't0.*'
    : location
      ? table.primaryKey.map((c) => `t0.${ident(c)}`).join(', ')
      : '1'
  const upsert = kind === 'insert' && prefs.resolution !== null
  const returned = upsert ? `${returning}, t0.xmax = 0 as pgrst_inserted` : returning
  const cte = `with pgrst_m as (${mutationSql(b, kind, table, body, req.body, query, prefs, returned)})`
  const inserted = upsert
    ? ', (select count(*) from pgrst_m where pgrst_inserted)::int as inserted'
    : ''
  let sql: string
  if (representation) {
    const source: Source = { from: 'pgrst_m t0', alias: 't0', table, label: table.name }
    const page = { limit: null, offset: 0 }
    const opts = {
      page,
      count: false,
      stripNulls: output.stripNulls,
      filtered: false,
      with: cte,
      extra: inserted,
    }
    sql = readSql(b, { ...query.root, filters: [] }, source, opts)
  } else {
    const pairs = table.primaryKey.map((c) => `'${c.replaceAll("'", "''")}=eq.' || t0.${ident(c)}`)
    const loc = location
      ? `(select concat_ws('&', ${pairs.join(', ')}) from pgrst_m t0 limit 1)`
      : 'null'
    sql = `${cte} select ''::text as body, count(*)::int as page, null::int as total, ${loc} as location${inserted} from pgrst_m`
  }
  return {
    ...base,
    bulk: isBulkWrite(req.method, false, req.body, body),
    sql,
    values: b.params.values,
    refusable: output.kind === 'object' || (kind !== 'insert' && strictMaxAffected(prefs)),
    finish: (row) => {
      if (kind !== 'insert') checkMaxAffected(prefs, row.page)
      checkSingular(output, row.page)
      const total = prefs.count ? row.page : null
      const loc = row.location ? `/${table.name}?${row.location}` : undefined
      return mutationOutcome({ ...row, total, location: loc }, output, prefs, kind === 'insert')
    },
  }
}
