import type { PGlite } from '@electric-sql/pglite'

// One statement as a caller in ONE round trip into PGlite: the context statement and the
// query go as extended-protocol messages ending in a single Sync, so they share Postgres's
// implicit transaction (set_config(..., true) lasts exactly that long, and RLS applies). A
// transaction() costs three round trips (BEGIN with the context, query, COMMIT; four when
// this was measured ~1.8x faster), and holds the database across the gaps between them.
// Each SQL text is also kept as a named prepared statement, so later calls skip parsing and
// planning (another 3-4x here); Postgres itself re-plans when the schema, the role (RLS) or
// the search_path changes. Only for statements whose outcome is accepted as it comes: the
// implicit transaction commits at the Sync, or rolls back whole when a statement fails.

const encoder = new TextEncoder()

function message(type: string, parts: Uint8Array[]): Uint8Array {
  const length = 4 + parts.reduce((n, p) => n + p.length, 0)
  const out = new Uint8Array(1 + length)
  out[0] = type.charCodeAt(0)
  new DataView(out.buffer).setInt32(1, length)
  let offset = 5
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

const cstring = (s: string) => encoder.encode(`${s}\0`)
const int16 = (n: number) => new Uint8Array([(n >> 8) & 0xff, n & 0xff])
const int32 = (n: number) =>
  new Uint8Array([(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff])

/** Postgres text format for a parameter, as PGlite's own serializer writes it. */
function text(value: unknown): Uint8Array | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return encoder.encode(value)
  if (typeof value === 'boolean') return encoder.encode(value ? 't' : 'f')
  if (typeof value === 'number' || typeof value === 'bigint') return encoder.encode(String(value))
  return encoder.encode(JSON.stringify(value))
}

/** Bind, Describe and Execute of the prepared statement `name` with text parameters. */
function execute(name: string, values: unknown[]): Uint8Array[] {
  const bind: Uint8Array[] = [cstring(''), cstring(name), int16(0), int16(values.length)]
  for (const value of values) {
    const bytes = text(value)
    if (bytes) bind.push(int32(bytes.length), bytes)
    else bind.push(int32(-1))
  }
  bind.push(int16(0))
  return [
    message('B', bind),
    message('D', [encoder.encode('P'), cstring('')]),
    message('E', [cstring(''), int32(0)]),
  ]
}

const closeStatement = (name: string) => message('C', [encoder.encode('S'), cstring(name)])

/** Which SQL texts have a prepared statement in PGlite's one session, and their names. */
class StatementCache {
  private readonly names = new Map<string, string>()
  private readonly prepared = new Set<string>()
  private next = 0
  private static readonly limit = 500

  /** The messages that run `sql`: preparing it first when it is new (or was lost). */
  messages(sql: string, values: unknown[], out: Uint8Array[]): string {
    let name = this.names.get(sql)
    if (name) {
      // Most recently used last, so eviction takes the least recently used.
      this.names.delete(sql)
      this.names.set(sql, name)
    } else {
      name = `lb_${this.next++}`
      this.names.set(sql, name)
      if (this.names.size > StatementCache.limit) this.evictOldest(out)
    }
    if (!this.prepared.has(name)) {
      // Closing a statement that does not exist is not an error, so a re-prepare is safe.
      out.push(closeStatement(name), message('P', [cstring(name), cstring(sql), int16(0)]))
    }
    out.push(...execute(name, values))
    return name
  }

  private evictOldest(out: Uint8Array[]): void {
    const [sql, name] = this.names.entries().next().value as [string, string]
    this.names.delete(sql)
    this.prepared.delete(name)
    out.push(closeStatement(name))
  }

  succeeded(names: string[]): void {
    for (const name of names) this.prepared.add(name)
  }

  /** After an error Postgres skipped the rest of the pipeline: prepare these again next time. */
  failed(names: string[]): void {
    for (const name of names) this.prepared.delete(name)
  }
}

const caches = new WeakMap<PGlite, StatementCache>()

class PipelineDesync extends Error {
  constructor() {
    super('PGlite returned no answer to a pipelined statement')
  }
}

type Field = { name: string; dataTypeID: number }
type BackendMessage = { name: string; fields?: Field[] | (string | null)[] }

// Type OIDs of the values callers read back: bool, int2/4/8, float4/8; the rest stay text.
function parse(value: string | null, type: number): unknown {
  if (value === null) return null
  if (type === 16) return value === 't'
  if (type === 20 || type === 21 || type === 23 || type === 700 || type === 701)
    return Number(value)
  return value
}

/**
 * Runs the `prelude` statements then `sql` in one implicit transaction and returns the rows
 * of `sql`, serialised with every other database call as PGlite's own query() is. A `write`
 * is synced to the file system as query() syncs, and is never sent twice when the answer
 * went missing (it may have committed).
 */
export async function pipelined(
  pg: PGlite,
  prelude: { sql: string; values: unknown[] }[],
  sql: string,
  values: unknown[],
  { write }: { write: boolean },
): Promise<Record<string, unknown>[]> {
  let cache = caches.get(pg)
  if (!cache) caches.set(pg, (cache = new StatementCache()))
  const statements = [...prelude, { sql, values }]
  const run = async () => {
    const parts: Uint8Array[] = []
    const names = statements.map((s) => cache.messages(s.sql, s.values, parts))
    parts.push(message('S', []))
    const buffer = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
    let offset = 0
    for (const part of parts) {
      buffer.set(part, offset)
      offset += part.length
    }
    try {
      // PGlite's execProtocol takes no lock itself; take the same two that query() takes, in
      // the same order, so this never runs inside another caller's transaction.
      const { messages } = await pg._runExclusiveTransaction(() =>
        pg._runExclusiveQuery(() => pg.execProtocol(buffer, { syncToFs: write })),
      )
      // Every Sync ends in ReadyForQuery. After a client of the --db-port socket has used
      // the shared session, PGlite can hand back an empty answer once.
      if (!(messages as BackendMessage[]).some((m) => m.name === 'readyForQuery')) {
        throw new PipelineDesync()
      }
      cache.succeeded(names)
      return messages as BackendMessage[]
    } catch (error) {
      cache.failed(names)
      throw error
    }
  }
  let messages: BackendMessage[]
  try {
    messages = await run()
  } catch (error) {
    // A prepared statement can vanish (26000: DISCARD ALL from a psql client on the shared
    // session) or outlive its result type (0A000: a migration changed the columns); it has
    // been forgotten above, so one retry prepares it again. Either fails before anything
    // runs; a missing answer is only safe to redo for a read.
    const code = (error as { code?: string }).code
    const desync = error instanceof PipelineDesync
    if (desync ? write : code !== '26000' && code !== '0A000') throw error
    messages = await run()
  }
  let index = 0
  let fields: Field[] = []
  const rows: Record<string, unknown>[] = []
  for (const m of messages) {
    if (m.name === 'commandComplete') index++
    if (index !== prelude.length) continue
    if (m.name === 'rowDescription') fields = m.fields as Field[]
    if (m.name !== 'dataRow') continue
    const row = m.fields as (string | null)[]
    rows.push(
      Object.fromEntries(fields.map((f, i) => [f.name, parse(row[i] ?? null, f.dataTypeID)])),
    )
  }
  return rows
}
