// The change feed's SQL: each function is one statement (or one short transaction) per batch
// of changes, never per subscriber, because PGlite is a single serialised connection.
import type { Database } from '../db/database.ts'
import type { Claims } from './auth.ts'
import type { Table } from './record.ts'

export type QueuedChange = {
  id: number
  relid: number
  type: 'INSERT' | 'UPDATE' | 'DELETE'
  record: string | null
  old_record: string | null
  ts: string
}

/** Takes the oldest queued changes off the queue. */
export async function takeChanges(db: Database, limit: number): Promise<QueuedChange[]> {
  const { rows } = await db.asService((tx) =>
    tx.query<QueuedChange>(
      `delete from realtime.changes where id in (select id from realtime.changes order by id limit $1)
     returning id::int, relid::int, type, record, old_record,
       to_char(committed_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ts`,
      [limit],
    ),
  )
  return rows.sort((a, b) => a.id - b.id)
}

export async function loadTables(db: Database, relids: number[]): Promise<Table[]> {
  const { rows } = await db.asService((tx) =>
    tx.query<Table>(
      `select c.oid::int as relid, n.nspname as schema, c.relname as table,
       c.relrowsecurity as rls, c.relreplident = 'f' as "replicaFull",
       coalesce((select json_agg(json_build_object('name', a.attname, 'type', t.typname,
           'sqlType', format_type(a.atttypid, a.atttypmod),
           'pk', coalesce(a.attnum = any (i.indkey), false)) order by a.attnum)
         from pg_attribute a join pg_type t on t.oid = a.atttypid
         left join pg_index i on i.indrelid = c.oid and i.indisprimary
         where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '[]') as columns
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.oid = any ($1::oid[])`,
      [relids],
    ),
  )
  return rows
}

export type FilterCheck = {
  op: string
  sqlType: string
  value: string | null
  operand: string
  negate: boolean
}

/** Evaluates postgres_changes filters with Postgres' own operators and casts. */
export async function checkFilters(db: Database, checks: FilterCheck[]): Promise<boolean[]> {
  if (!checks.length) return []
  const { rows } = await db.asService((tx) =>
    tx.query<{ ok: boolean }>(
      `select realtime.filter_matches(f.op, f.type::regtype, f.value, f.operand, f.negate) as ok
     from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bool[])
       with ordinality as f(op, type, value, operand, negate, n)
     order by f.n`,
      [
        checks.map((c) => c.op),
        checks.map((c) => c.sqlType),
        checks.map((c) => c.value),
        checks.map((c) => c.operand),
        checks.map((c) => c.negate),
      ],
    ),
  )
  return rows.map((r) => r.ok)
}

/** Which roles may SELECT which tables, as `relid role` keys. */
export async function selectable(
  db: Database,
  roles: string[],
  relids: number[],
): Promise<Set<string>> {
  const { rows } = await db.asService((tx) =>
    tx.query<{ key: string }>(
      `select o.relid || ' ' || r.role as key
     from unnest($1::text[]) r(role) cross join unnest($2::oid[]) o(relid)
     where case when exists (select from pg_roles where rolname = r.role)
       then has_table_privilege(r.role, o.relid, 'SELECT') else false end`,
      [roles, relids],
    ),
  )
  return new Set(rows.map((r) => r.key))
}

export type RowProbe = { n: number; table: Table; pk: (string | null)[] }

/**
 * Which of these rows the subscriber's role and claims can SELECT (docs §4.5 step 4): one
 * transaction under that role, one query per table, each looking the rows up by primary key.
 */
export async function visibleRows(
  db: Database,
  role: string,
  claims: Claims,
  probes: RowProbe[],
): Promise<Set<number>> {
  const byTable = new Map<Table, RowProbe[]>()
  for (const probe of probes) {
    const list = byTable.get(probe.table) ?? []
    list.push(probe)
    byTable.set(probe.table, list)
  }
  const visible = new Set<number>()
  await db.asUser({ role, claims }, async (tx) => {
    for (const [table, list] of byTable) {
      const pk = table.columns.filter((c) => c.pk)
      const keys = pk.map((_, i) => `k${i}`)
      const match = pk.map((c, i) => `t.${ident(c.name)} = k.k${i}::${c.sqlType}`).join(' and ')
      const arrays = pk.map((_, i) => `$${i + 2}::text[]`).join(', ')
      const { rows } = await tx.query<{ n: number }>(
        `select k.n from unnest($1::int[], ${arrays}) as k(n, ${keys.join(', ')})
         where exists (select 1 from ${ident(table.schema)}.${ident(table.table)} t where ${match})`,
        [list.map((p) => p.n), ...pk.map((_, i) => list.map((p) => p.pk[i] ?? null))],
      )
      for (const row of rows) visible.add(row.n)
    }
  })
  return visible
}

function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}
