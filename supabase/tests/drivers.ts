import { clientFor, contextFor, type Stack, type User } from './stack.ts'

/** One API call on a table, as a client would make it. */
export type Call = {
  table: string
  op: 'select' | 'insert' | 'update' | 'delete'
  match?: Record<string, string>
  values?: Record<string, unknown>
  /** Ask for the written rows back (PostgREST's return=representation). */
  returning?: boolean
}

type Row = Record<string, unknown>

/** The rows the caller got back (selects, returning mutations, RPCs) and the error. */
export type Answer = { rows: Row[]; error: { code: string; message: string } | null }

/** Two ways to reach the database as a given caller, with the same meaning. */
export type Driver = {
  name: string
  call(stack: Stack, user: User | undefined, call: Call): Promise<Answer>
  rpc(stack: Stack, user: User | undefined, fn: string, args: Row): Promise<Answer>
}

function answer(data: unknown, error: { code: string; message: string } | null): Answer {
  return {
    rows: Array.isArray(data) ? data : [],
    error: error && { code: error.code, message: error.message },
  }
}

/** Through supabase-js and localbase's REST service, as the web app does it. */
export const restDriver: Driver = {
  name: 'supabase-js',
  async call(stack, user, { table, op, match = {}, values = {}, returning }) {
    const from = clientFor(stack, user).from(table)
    const query =
      op === 'select'
        ? from.select('*').match(match)
        : op === 'insert'
          ? from.insert(values)
          : op === 'update'
            ? from.update(values).match(match)
            : from.delete().match(match)
    const { data, error } = returning && op !== 'select' ? await query.select() : await query
    return answer(data, error)
  },
  async rpc(stack, user, fn, args) {
    const { data, error } = await clientFor(stack, user).rpc(fn, args)
    // A scalar result arrives bare; name it as Postgres names a function's column.
    const rows = data === null || Array.isArray(data) ? data : [{ [fn]: data }]
    return answer(rows, error)
  },
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`

async function run(stack: Stack, user: User | undefined, sql: string, params: unknown[]) {
  try {
    const result = await stack.db.asUser(contextFor(user), (tx) =>
      tx.query<{ rows: Row[] }>(sql, params),
    )
    return answer(result.rows[0]?.rows ?? [], null)
  } catch (error) {
    const e = error as { code?: string; message: string }
    return answer([], { code: e.code ?? '', message: e.message })
  }
}

/**
 * The same calls as plain SQL in the transaction context PostgREST sets up
 * (Database.asUser): proves the policies themselves, independent of the REST service.
 */
export const sqlDriver: Driver = {
  name: 'SQL',
  call(stack, user, { table, op, match = {}, values = {}, returning }) {
    const target = `public.${ident(table)}`
    const params: unknown[] = []
    const param = (value: unknown) => `$${params.push(value)}`
    const where = Object.entries(match)
      .map(([column, value]) => `${ident(column)} = ${param(value)}`)
      .join(' and ')
    const filter = where ? ` where ${where}` : ''
    const sets = () =>
      Object.entries(values).map(([column, value]) => `${ident(column)} = ${param(value)}`)
    const mutation =
      op === 'insert'
        ? `insert into ${target} (${Object.keys(values).map(ident).join(', ')}) values (${Object.values(values).map(param).join(', ')})`
        : op === 'update'
          ? `update ${target} set ${sets().join(', ')}${filter}`
          : `delete from ${target}${filter}`
    const sql =
      op === 'select'
        ? `select coalesce(jsonb_agg(t), '[]') as rows from (select * from ${target}${filter}) t`
        : returning
          ? `with t as (${mutation} returning *) select coalesce(jsonb_agg(t), '[]') as rows from t`
          : mutation
    return run(stack, user, sql, params)
  },
  // `select *` names a scalar result's column after the function, as the REST driver does.
  rpc(stack, user, fn, args) {
    const params = Object.values(args)
    const named = Object.keys(args).map((name, i) => `${ident(name)} => $${i + 1}`)
    const sql = `select coalesce(jsonb_agg(t), '[]') as rows from (select * from public.${ident(fn)}(${named.join(', ')})) t`
    return run(stack, user, sql, params)
  },
}
