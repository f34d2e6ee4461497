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

/**
 * The columns each role may SELECT in each table (docs §4.5 step 1: has_column_privilege),
 * keyed `relid role`; pairs with no selectable column are absent.
 */
export async function selectableColumns(
  db: Database,
  roles: string[],
  relids: number[],
): Promise<Map<string, Set<string>>> {
  const { rows } = await db.asService((tx) =>
    tx.query<{ key: string; columns: string[] }>(
      `select o.relid || ' ' || r.role as key, array_agg(a.attname::text) as columns
       from unnest($1::text[]) r(role) cross join unnest($2::oid[]) o(relid)
       join pg_attribute a on a.attrelid = o.relid and a.attnum > 0 and not a.attisdropped
       where case when exists (select from pg_roles where rolname = r.role)
         then has_column_privilege(r.role, o.relid, a.attnum, 'SELECT') else false end
       group by 1`,
      [roles, relids],
    ),
  )
  return new Map(rows.map((r) => [r.key, new Set(r.columns)]))
}

const VIEWERS_PER_STATEMENT = 8

export type RowProbe = { n: number; pk: (string | null)[] }
export type Viewer = { role: string; claims: Claims }

/**
 * Which changed rows of each table each viewer can SELECT under RLS (docs §4.5 step 4): one
 * statement per table for all rows and a handful of viewers (realtime.visible_rows switches
 * role and claims per viewer, as hosted apply_rls does). Returns `relid viewerIndex n` keys.
 */
export async function visibleRows(
  db: Database,
  probes: { table: Table; rows: RowProbe[]; viewers: Viewer[] }[],
): Promise<Set<string>> {
  const visible = new Set<string>()
  for (const { table, rows, viewers } of probes) {
    // A few viewers per transaction, so REST requests get the connection in between.
    for (let from = 0; from < viewers.length; from += VIEWERS_PER_STATEMENT) {
      const chunk = viewers.slice(from, from + VIEWERS_PER_STATEMENT)
      const result = await db.asService((tx) =>
        tx.query<{ grp: number; n: number }>(
          `select grp, n from realtime.visible_rows($1::oid::regclass, $2, $3, $4, $5, $6)`,
          [
            table.relid,
            table.columns.filter((c) => c.pk).map((c) => c.name),
            rows.map((r) => r.n),
            JSON.stringify(rows.map((r) => r.pk)),
            chunk.map((v) => v.role),
            chunk.map((v) => JSON.stringify(v.claims)),
          ],
        ),
      )
      for (const { grp, n } of result.rows) visible.add(`${table.relid} ${from + grp - 1} ${n}`)
    }
  }
  return visible
}
