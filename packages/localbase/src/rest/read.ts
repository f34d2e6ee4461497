import type { QueryNode } from './parse-select.ts'
import { ident } from './sql.ts'
import type { Built, SelectBuilder, Source } from './sql-select.ts'

// The outer statement every answer shares: the page as JSON text, its row count, the total.

export type Page = { limit: number | null; offset: number }

export type ReadOptions = {
  page: Page
  count: boolean
  stripNulls: boolean
  /** False when the level's filters were already applied by a mutation. */
  filtered?: boolean
  /** A leading `with …` clause, for reading mutated rows. */
  with?: string
  /** Extra columns of the one result row. */
  extra?: string
  /** Build the body as CSV in SQL, so values print as Postgres prints them. */
  csv?: boolean
}

export function whereSql(conditions: string[]): string {
  return conditions.length ? `where ${conditions.join(' and ')}` : ''
}

/** Returns one row: body (JSON array text), page (rows in it), total (or null). */
export function readSql(b: SelectBuilder, node: QueryNode, source: Source, opts: ReadOptions) {
  const built = b.node(node, source, opts.filtered ?? true)
  const rows = [
    `select ${built.columns.join(', ') || 'null'} from ${source.from} ${built.joins.join(' ')}`,
    whereSql(built.where),
    groupSql(built),
    built.orderBy.length ? `order by ${built.orderBy.join(', ')}` : '',
    opts.page.limit !== null ? `limit ${opts.page.limit}` : '',
    opts.page.offset ? `offset ${opts.page.offset}` : '',
  ].join(' ')
  const agg = `coalesce(json_agg(_r), '[]')::text`
  const csv = opts.csv && built.labels ? csvSql(b, built.labels) : null
  const body = csv ?? (opts.stripNulls ? `json_strip_nulls(${agg}::json)::text` : agg)
  const total = opts.count
    ? `(select count(*) from (select 1 from ${source.from} ${built.filterJoins.join(' ')} ${whereSql(built.where)} ${groupSql(built)}) _c)::int`
    : 'null::int'
  return `${opts.with ?? ''} select ${body} as body, count(*)::int as page, ${total} as total, ${csv !== null} as csv${opts.extra ?? ''} from (${rows}) _r`
}

// A cell is quoted when it holds a comma, a quote or whitespace; NULL is an empty cell.
const csvCell = (value: string) =>
  `coalesce(case when ${value} ~ '[,"''\\s]' then '"' || replace(${value}, '"', '""') || '"' else ${value} end, '')`

function csvSql(b: SelectBuilder, labels: string[]): string {
  const header = b.params.add(
    labels.map((l) => (/[,"\s]/.test(l) ? `"${l.replaceAll('"', '""')}"` : l)).join(','),
  )
  const cells = labels.map((l) => csvCell(`_r.${ident(l)}::text`)).join(` || ',' || `)
  return `${header}::text || coalesce(E'\\n' || string_agg(${cells}, E'\\n'), '')`
}

function groupSql(built: Built): string {
  return built.groupBy.length ? `group by ${built.groupBy.join(', ')}` : ''
}
