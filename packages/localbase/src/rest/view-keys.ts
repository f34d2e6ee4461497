import type { Transaction } from '../db/database.ts'
import type { ForeignKey, Table } from './schema-cache.ts'

// Views inherit the keys of the tables they show, so they can be embedded like tables
// (PostgREST does this by following view columns to base columns). Here a view column maps
// to the base column of the same name that the view uses.

const viewColumnsSql = `
select u.view_schema as schema, u.view_name as view, u.table_schema as "baseSchema",
  u.table_name as base, array_agg(u.column_name::text) as columns
from information_schema.view_column_usage u
where u.view_schema = any($1)
group by 1, 2, 3, 4`

type Row = { schema: string; view: string; baseSchema: string; base: string; columns: string[] }

export async function addViewKeys(
  pg: Pick<Transaction, 'query'>,
  schemas: string[],
  tables: Map<string, Table>,
  foreignKeys: ForeignKey[],
): Promise<void> {
  const { rows } = await pg.query<Row>(viewColumnsSql, [schemas])
  const derived: ForeignKey[] = []
  for (const row of rows) {
    const view = tables.get(`${row.schema}.${row.view}`)
    const base = tables.get(`${row.baseSchema}.${row.base}`)
    if (!view || !base || view === base) continue
    const shows = (cols: string[]) =>
      cols.length > 0 && cols.every((c) => row.columns.includes(c) && view.columns.has(c))
    if (shows(base.primaryKey) && view.primaryKey.length === 0) {
      view.primaryKey = base.primaryKey
      view.uniques.push(base.primaryKey)
    }
    for (const fk of foreignKeys) {
      if (fk.from === base && shows(fk.cols)) derived.push({ ...fk, from: view, viaView: true })
      if (fk.to === base && shows(fk.toCols)) derived.push({ ...fk, to: view, viaView: true })
    }
  }
  foreignKeys.push(...derived)
}
