import { isObject, parseJsonBody } from './body.ts'
import { isBulkWrite } from './bulk-write.ts'
import { ApiError } from './errors.ts'
import { parseQuery } from './parse-request.ts'
import { checkMaxAffected, pageOf, type Plan, type RestRequest, strictMaxAffected } from './plan.ts'
import { readSql } from './read.ts'
import { readOutcome, shapeBody } from './respond.ts'
import { callSource, chooseFunction } from './rpc.ts'
import type { SchemaCache } from './schema-cache.ts'
import { SelectBuilder } from './sql-select.ts'
import { Params } from './sql.ts'

// Requests on /rest/v1/rpc/<function>: POST with a JSON body, or GET/HEAD with query arguments.

export function rpcPlan(cache: SchemaCache, req: RestRequest): Plan {
  const read = req.method === 'GET' || req.method === 'HEAD'
  if (!read && req.method !== 'POST') {
    throw new ApiError(405, 'PGRST117', `Unsupported HTTP method: ${req.method}`)
  }
  const overloads = cache.functions.get(`${req.schema}.${req.name}`) ?? []
  const argNames = new Set(overloads.flatMap((fn) => fn.args.map((a) => a.name)))
  let args: unknown
  const skip = new Set<string>()
  if (read) {
    const given: Record<string, string> = {}
    for (const [key, value] of req.params) {
      if (argNames.has(key) && key !== '') {
        given[key] = value
        skip.add(key)
      }
    }
    args = given
  } else {
    args = req.body.trim() ? parseJsonBody(req.body) : {}
  }
  const keys = isObject(args) ? Object.keys(args) : []
  const { fn, single } = chooseFunction(cache, req.schema, req.name, keys)
  if (!single && !isObject(args)) throw new ApiError(400, 'PGRST102', 'Empty or invalid json')
  const query = parseQuery(req.params, skip)
  const b = new SelectBuilder(cache, new Params())
  const source = callSource(fn, single, args, b.params, fn.returnTable)
  const page = pageOf(query.root, req.headers.get('range'), fn.returnsSet ? req.maxRows : null)
  const head = req.method === 'HEAD'
  // As PostgREST: a STABLE or IMMUTABLE function runs read-only, POST included.
  const readOnly = read || !fn.volatile
  // A read is interactive whatever its body (a search's query embedding alone can pass 16 KB).
  const bulk = fn.bulk || (!readOnly && isBulkWrite(req.method, true, req.body, args))
  const base = { readOnly, rollback: req.prefs.rollback, bulk, values: b.params.values }
  // checkMaxAffected, and readOutcome's single object and page past the end.
  const refusable = strictMaxAffected(req.prefs) || req.output.kind === 'object' || page.offset > 0
  if (fn.returns === 'void') {
    const sql = `select ''::text as body, 0 as page, null::int as total from ${source.from}`
    const finish = () => ({ status: 204, body: null, headers: {} })
    return { ...base, sql, finish, refusable: false }
  }
  if (fn.returns === 'scalar') {
    const limit = page.limit !== null ? `limit ${page.limit}` : ''
    const total = req.prefs.count ? `(select count(*) from ${source.from})::int` : 'null::int'
    const sql = fn.returnsSet
      ? `select coalesce(json_agg(_r.v), '[]')::text as body, count(*)::int as page, ${total} as total from (select t0 as v from ${source.from} ${limit} offset ${page.offset}) _r`
      : `select to_json(t0)::text as body, 1 as page, ${req.prefs.count ? 1 : 'null::int'} as total from ${source.from}`
    return {
      ...base,
      sql,
      refusable,
      finish: (row) => {
        checkMaxAffected(req.prefs, row.page)
        return readOutcome(row, req.output, page, head)
      },
    }
  }
  const opts = {
    page,
    count: req.prefs.count !== null,
    stripNulls: req.output.stripNulls,
    csv: req.output.kind === 'csv',
  }
  const sql = readSql(b, query.root, source, opts)
  return {
    ...base,
    sql,
    refusable,
    finish: (row) => {
      checkMaxAffected(req.prefs, row.page)
      if (fn.returnsSet) return readOutcome(row, req.output, page, head)
      const shaped = shapeBody({ kind: 'object', stripNulls: false }, row.body)
      return {
        status: 200,
        body: head ? null : shaped.body || 'null',
        headers: { 'content-type': 'application/json; charset=utf-8' },
      }
    },
  }
}
