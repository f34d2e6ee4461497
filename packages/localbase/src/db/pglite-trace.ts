import { appendFileSync } from 'node:fs'

/** One job of PGlite's queue: how long it waited for the worker and how long it held it. */
export type JobRecord = {
  /** performance.now() when it started, ms. */
  at: number
  kind: 'interactive' | 'bulk'
  /** What it ran, as its caller named it (see withJobKey). */
  key: string
  waitMs: number
  holdMs: number
  /** Round trips to the worker thread while it held the database (a transaction has several). */
  calls: number
  /** Statements those carried (a pipelined read sends its context with its query). */
  statements: number
  /** The job's slowest statement, whitespace folded, cut to 120 characters. */
  sql: string
}

/**
 * Where the worker's time goes, for finding what holds it: with LOCALBASE_DB_TRACE=FILE set,
 * every job is appended to FILE as a JSON line (bench:load sets it and summarises the file).
 * Lines are written in batches, at most four times a second, so tracing itself stays cheap.
 */
export class PGliteTrace {
  private readonly path: string
  private lines: string[] = []
  private timer: NodeJS.Timeout | null = null

  constructor(path: string) {
    this.path = path
  }

  static fromEnv(env: NodeJS.ProcessEnv = process.env): PGliteTrace | null {
    return env.LOCALBASE_DB_TRACE ? new PGliteTrace(env.LOCALBASE_DB_TRACE) : null
  }

  record(job: JobRecord): void {
    this.lines.push(JSON.stringify(job))
    this.timer ??= setTimeout(() => this.flush(), 250).unref()
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (this.lines.length === 0) return
    const text = this.lines.join('\n') + '\n'
    this.lines = []
    appendFileSync(this.path, text)
  }
}

/**
 * A statement's text as a trace shows it. PostgREST-style reads all open with the same
 * wrappers (rows, or one value of a function), so theirs is named by the first relation or
 * function they read.
 */
export function traceSql(sql: string): string {
  const text = sql.replace(/\s+/g, ' ').trim()
  if (!/^select (coalesce\(json_agg\(_r|to_json\(t0\))/.test(text)) return text.slice(0, 120)
  const relation = /\b(?:from|lateral) "(\w+)"\."(\w+)"/.exec(text)
  return `read ${relation ? `${relation[1]}.${relation[2]}` : text.slice(0, 100)}`
}
