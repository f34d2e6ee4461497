import type { Transaction } from '../db/database.ts'
import { addViewKeys } from './view-keys.ts'

type Queryable = Pick<Transaction, 'query'>

// What PostgREST learns from pg_catalog: relations, keys and functions of the exposed schemas.

export type Column = { name: string; type: string; hasDefault: boolean }

export type Table = {
  schema: string
  name: string
  isView: boolean
  columns: Map<string, Column>
  primaryKey: string[]
  /** Column sets with a unique or primary key constraint, to detect one-to-one links. */
  uniques: string[][]
}

export type ForeignKey = {
  name: string
  from: Table
  cols: string[]
  to: Table
  toCols: string[]
  /** Copied onto a view from its base table; not matched by column or key name. */
  viaView?: boolean
}

export type FunctionArg = { name: string; type: string; hasDefault: boolean }

export type PgFunction = {
  schema: string
  name: string
  args: FunctionArg[]
  returnType: string
  returnsSet: boolean
  /** 'void' | 'scalar' | 'composite' (a table's row type or OUT/TABLE columns). */
  returns: 'void' | 'scalar' | 'composite'
  /** The table whose row type is returned, for embedding from function results. */
  returnTable: Table | null
  volatile: boolean
  /**
   * Declared bulk work (`set localbase.queue = 'bulk'` in its definition): its calls wait
   * behind the requests someone is waiting on, whatever their arguments. A placeholder setting
   * hosted Postgres sets for the call and PostgREST ignores.
   */
  bulk: boolean
  /** For one-argument functions taking a table's row: that table, as `schema.name`. */
  rowArg: string | null
  /** The ROWS estimate; `setof … rows 1` embeds as one object. */
  rows: number
}

export type SchemaCache = {
  tables: Map<string, Table>
  foreignKeys: ForeignKey[]
  functions: Map<string, PgFunction[]>
}

export const qualified = (schema: string, name: string) => `${schema}.${name}`

const relationsSql = `
select n.nspname as schema, c.relname as name, c.relkind::text as kind,
  coalesce((select json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod),
      'hasDefault', a.atthasdef or a.attidentity <> '' or a.attgenerated <> '') order by a.attnum)
    from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '[]') as columns
from pg_class c join pg_namespace n on n.oid = c.relnamespace
where n.nspname = any($1) and c.relkind in ('r', 'v', 'm', 'f', 'p')`

const constraintsSql = `
select c.conname as name, c.contype::text as type, n1.nspname as schema, r1.relname as "table",
  (select json_agg(a.attname order by k.i) from unnest(c.conkey) with ordinality k(n, i)
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n) as cols,
  n2.nspname as fschema, r2.relname as ftable,
  (select json_agg(a.attname order by k.i) from unnest(c.confkey) with ordinality k(n, i)
    join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n) as fcols
from pg_constraint c
join pg_class r1 on r1.oid = c.conrelid join pg_namespace n1 on n1.oid = r1.relnamespace
left join pg_class r2 on r2.oid = c.confrelid left join pg_namespace n2 on n2.oid = r2.relnamespace
where c.contype in ('p', 'u', 'f') and n1.nspname = any($1)
order by c.conname`

const functionsSql = `
select n.nspname as schema, p.proname as name, p.pronargs as nargs, p.pronargdefaults as ndefaults,
  coalesce(p.proargnames, '{}') as argnames, coalesce(p.proargmodes::text[], '{}') as argmodes,
  array(select format_type(t, null) from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]))
    with ordinality u(t, i) order by i) as argtypes,
  p.proretset as set, format_type(p.prorettype, null) as rettype, t.typtype::text as typtype,
  rn.nspname as retschema, rc.relname as rettable, p.provolatile::text = 'v' as volatile,
  'localbase.queue=bulk' = any(coalesce(p.proconfig, '{}')) as bulk,
  p.prorows::float8 as rows,
  (select an.nspname || '.' || ac.relname from pg_type at join pg_class ac on ac.oid = at.typrelid
    join pg_namespace an on an.oid = ac.relnamespace
    where p.pronargs = 1 and at.oid = p.proargtypes[0]) as rowarg
from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_type t on t.oid = p.prorettype
left join pg_class rc on rc.oid = t.typrelid left join pg_namespace rn on rn.oid = rc.relnamespace
where n.nspname = any($1) and p.prokind = 'f'`

type RelationRow = { schema: string; name: string; kind: string; columns: Column[] }
type ConstraintRow = {
  name: string
  type: string
  schema: string
  table: string
  cols: string[]
  fschema: string | null
  ftable: string | null
  fcols: string[] | null
}
type FunctionRow = {
  schema: string
  name: string
  nargs: number
  ndefaults: number
  argnames: string[]
  argmodes: string[]
  argtypes: string[]
  set: boolean
  rettype: string
  typtype: string
  retschema: string | null
  rettable: string | null
  volatile: boolean
  bulk: boolean
  rows: number
  rowarg: string | null
}

export async function loadSchemaCache(pg: Queryable, schemas: string[]): Promise<SchemaCache> {
  const relations = await pg.query<RelationRow>(relationsSql, [schemas])
  const tables = new Map<string, Table>()
  for (const r of relations.rows) {
    tables.set(qualified(r.schema, r.name), {
      schema: r.schema,
      name: r.name,
      isView: r.kind === 'v' || r.kind === 'm',
      columns: new Map(r.columns.map((c) => [c.name, c])),
      primaryKey: [],
      uniques: [],
    })
  }
  const constraints = await pg.query<ConstraintRow>(constraintsSql, [schemas])
  const foreignKeys: ForeignKey[] = []
  for (const c of constraints.rows) {
    const table = tables.get(qualified(c.schema, c.table))
    if (!table) continue
    if (c.type === 'p') table.primaryKey = c.cols
    if (c.type !== 'f') table.uniques.push(c.cols)
    const target = c.fschema && c.ftable ? tables.get(qualified(c.fschema, c.ftable)) : undefined
    if (c.type === 'f' && target && c.fcols) {
      foreignKeys.push({ name: c.name, from: table, cols: c.cols, to: target, toCols: c.fcols })
    }
  }
  await addViewKeys(pg, schemas, tables, foreignKeys)
  const functions = new Map<string, PgFunction[]>()
  const fnRows = await pg.query<FunctionRow>(functionsSql, [schemas])
  for (const f of fnRows.rows) {
    const fn = toFunction(f, tables)
    const key = qualified(f.schema, f.name)
    functions.set(key, [...(functions.get(key) ?? []), fn])
  }
  return { tables, foreignKeys, functions }
}

function toFunction(f: FunctionRow, tables: Map<string, Table>): PgFunction {
  const inputs: { name: string; type: string }[] = []
  const outputs: Column[] = []
  f.argtypes.forEach((type, i) => {
    const mode = f.argmodes[i] ?? 'i'
    const name = f.argnames[i] ?? ''
    if (mode === 'i' || mode === 'b' || mode === 'v') inputs.push({ name, type })
    if (mode === 'o' || mode === 'b' || mode === 't')
      outputs.push({ name, type, hasDefault: false })
  })
  const args = inputs.map((a, i) => ({ ...a, hasDefault: i >= inputs.length - f.ndefaults }))
  const returnTable =
    f.retschema && f.rettable ? tables.get(qualified(f.retschema, f.rettable)) : null
  const composite = f.typtype === 'c' || outputs.length > 0 || f.rettype === 'record'
  return {
    schema: f.schema,
    name: f.name,
    args,
    returnType: f.rettype,
    returnsSet: f.set,
    returns: f.rettype === 'void' ? 'void' : composite ? 'composite' : 'scalar',
    returnTable: returnTable ?? null,
    volatile: f.volatile,
    bulk: f.bulk,
    rowArg: f.rowarg,
    rows: f.rows,
  }
}
