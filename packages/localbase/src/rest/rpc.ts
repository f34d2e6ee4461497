import { ApiError } from './errors.ts'
import type { PgFunction, SchemaCache, Table } from './schema-cache.ts'
import type { Source } from './sql-select.ts'
import { ident, type Params, table as tableSql } from './sql.ts'

// Calling functions: choosing the overload from the argument names, then one FROM item that
// feeds the JSON arguments through json_to_record so Postgres converts them to the declared types.

export type Call = { fn: PgFunction; source: Source }

const rawTypes = new Set(['json', 'jsonb', 'text', 'xml', 'bytea'])

const signature = (fn: PgFunction) =>
  `${fn.schema}.${fn.name}(${fn.args.map((a) => `${a.name} => ${a.type}`).join(', ')})`

/** Picks the function `name` whose parameters fit `args`; PGRST202/PGRST203 otherwise. */
export function chooseFunction(
  cache: SchemaCache,
  schema: string,
  name: string,
  keys: string[],
): { fn: PgFunction; single: boolean } {
  const overloads = cache.functions.get(`${schema}.${name}`) ?? []
  // Named parameters must cover the keys; a single unnamed json/text-like parameter takes
  // the whole body; other unnamed parameters cannot be called, as in PostgREST.
  const fits = overloads.filter(
    (fn) =>
      fn.args.every((a) => a.name !== '') &&
      keys.every((k) => fn.args.some((a) => a.name === k)) &&
      fn.args.every((a) => a.hasDefault || keys.includes(a.name)),
  )
  const singles = overloads.filter(
    (fn) =>
      fn.args.length === 1 &&
      fn.args[0]?.name === '' &&
      rawTypes.has(fn.args[0].type) &&
      (keys.length > 0 || fn.args[0].hasDefault),
  )
  const found = [...fits, ...singles].sort(
    (a, b) => a.args.length - b.args.length || signature(a).localeCompare(signature(b)),
  )
  const [only] = found
  if (only && found.length === 1) return { fn: only, single: singles.includes(only) }
  if (found.length === 0) {
    const plural = keys.length === 1 ? 'parameter' : 'parameters'
    const withArgs = keys.length ? `with ${plural} ${keys.join(', ')}` : 'without parameters'
    throw new ApiError(
      404,
      'PGRST202',
      keys.length
        ? `Could not find the function ${schema}.${name}(${keys.join(', ')}) in the schema cache`
        : `Could not find the function ${schema}.${name} without parameters in the schema cache`,
      `Searched for the function ${schema}.${name} ${withArgs} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
    )
  }
  throw new ApiError(
    300,
    'PGRST203',
    `Could not choose the best candidate function between: ${found.map(signature).join(', ')}`,
    null,
    'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
  )
}

/** The FROM item calling `fn` with `args`; the call itself is aliased t0. */
export function callSource(
  fn: PgFunction,
  single: boolean,
  args: Record<string, unknown> | unknown,
  params: Params,
  resultTable: Table | null,
): Source {
  const name = tableSql(fn.schema, fn.name)
  const label = fn.name
  if (single) {
    const call = `${name}(${params.add(JSON.stringify(args))}::${fn.args[0]?.type ?? 'json'})`
    return { from: `${call} t0`, alias: 't0', table: resultTable, label }
  }
  const given = fn.args.filter((a) => Object.hasOwn(args as object, a.name))
  if (given.length === 0) return { from: `${name}() t0`, alias: 't0', table: resultTable, label }
  const record = `json_to_record(${params.add(JSON.stringify(args))}::json) _a(${given.map((a) => `${ident(a.name)} ${a.type}`).join(', ')})`
  const call = `${name}(${given.map((a) => `${ident(a.name)} => _a.${ident(a.name)}`).join(', ')})`
  return { from: `${record} cross join lateral ${call} t0`, alias: 't0', table: resultTable, label }
}
