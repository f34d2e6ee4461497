import { asBulk, withJobKey } from '../db/work-queue.ts'
import type { Caller, CredentialError } from '../gateway/caller.ts'
import { rpcPlan } from './call.ts'
import { ApiError, fromPgError } from './errors.ts'
import { headerRecord } from './header-record.ts'
import type { Plan, RestRequest } from './plan.ts'
import { parseAccept, parsePrefer } from './preferences.ts'
import type { Outcome, ResultRow } from './respond.ts'
import type { RestState } from './state.ts'
import { tablePlan } from './table.ts'

// One request: who is calling, which schema, which plan; then one transaction as that caller.

class Rollback {
  readonly outcome: Outcome
  constructor(outcome: Outcome) {
    this.outcome = outcome
  }
}

// An unknown API key never gets here: the gateway refuses it first (gateway/api-key.ts).
function credentialError(error: CredentialError): ApiError {
  const code = error.kind === 'expired_jwt' ? 'PGRST303' : 'PGRST301'
  const description = error.message.replaceAll('"', "'")
  return new ApiError(401, code, error.message, null, null, {
    'www-authenticate': `Bearer error="invalid_token", error_description="${description}"`,
  })
}

function profile(state: RestState, headers: Headers, method: string): string {
  const schemas = state.ctx.config.api.schemas
  const read = method === 'GET' || method === 'HEAD'
  const asked = headers.get(read ? 'accept-profile' : 'content-profile')
  if (!asked) return schemas[0] ?? 'public'
  if (!schemas.includes(asked)) {
    throw new ApiError(
      406,
      'PGRST106',
      `Invalid schema: ${asked}`,
      null,
      `Only the following schemas are exposed: ${schemas.join(', ')}`,
    )
  }
  return asked
}

function toResponse(outcome: Outcome): Response {
  const headers = new Headers(outcome.headers)
  return new Response(outcome.body, { status: outcome.status, headers })
}

export function errorResponse(error: ApiError, head = false): Response {
  const headers = { ...error.headers, 'content-type': 'application/json; charset=utf-8' }
  return toResponse({
    status: error.status,
    body: head ? null : JSON.stringify(error.body),
    headers,
  })
}

/**
 * `rawHeaders`: Node's raw header list of the request, when it came through the HTTP server
 * (see header-record.ts); app.request() in tests has none.
 */
export async function handle(
  state: RestState,
  request: Request,
  path: string,
  rawHeaders?: readonly string[],
): Promise<Response> {
  const head = request.method === 'HEAD'
  let caller: Caller | null = null
  try {
    const resolved = await state.ctx.callers.resolve(
      request.headers.get('apikey'),
      request.headers.get('authorization'),
    )
    if (!resolved.ok) throw credentialError(resolved.error)
    caller = resolved.caller
    const outcome = await run(state, request, path, caller, rawHeaders)
    return toResponse(outcome)
  } catch (error) {
    const apiError = error instanceof ApiError ? error : fromPgError(error, caller?.role ?? 'anon')
    return errorResponse(apiError, head)
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw new ApiError(404, 'PGRST125', 'Invalid path specified in request URL')
  }
}

async function run(
  state: RestState,
  request: Request,
  path: string,
  caller: Caller,
  rawHeaders?: readonly string[],
): Promise<Outcome> {
  const { method, headers } = request
  const segments = path.split('/').filter(Boolean).map(decodeSegment)
  if (segments.length === 0) {
    return {
      status: 200,
      body: JSON.stringify({ swagger: '2.0', info: { title: 'localbase' }, paths: {} }),
      headers: { 'content-type': 'application/openapi+json; charset=utf-8' },
    }
  }
  const rpc = segments[0] === 'rpc' && segments.length === 2
  if (segments.length !== 1 && !rpc) {
    throw new ApiError(404, 'PGRST125', `Invalid path specified in request URL`)
  }
  const schema = profile(state, headers, method)
  const url = new URL(request.url)
  const read = method === 'GET' || method === 'HEAD'
  const req: RestRequest = {
    method,
    schema,
    name: (rpc ? segments[1] : segments[0]) ?? '',
    params: url.searchParams,
    headers,
    body: read || method === 'DELETE' ? '' : await request.text(),
    prefs: parsePrefer(headers.get('prefer')),
    output: parseAccept(headers.get('accept')),
    maxRows: state.ctx.config.api.maxRows,
  }
  const key = read
    ? [
        method,
        schema,
        path,
        url.search,
        headers.get('prefer'),
        headers.get('accept'),
        headers.get('range'),
      ].join('\n')
    : null
  const plan = state.plan(key, () => (rpc ? rpcPlan : tablePlan)(state.cache, req))
  const context = {
    role: caller.role,
    claims: caller.claims,
    headers: headerRecord(rawHeaders ?? [...headers].flat()),
    method,
    path: url.pathname.replace(/^\/rest\/v1/, '') || '/',
    searchPath: [schema, ...state.ctx.config.api.extraSearchPath.filter((s) => s !== schema)],
  }
  // GET and HEAD run read-only, as in PostgREST, and so does a POST to a function that is not
  // VOLATILE (a search). Nothing read-only needs a rollback, and neither does a write whose
  // result finish cannot refuse: these take the one-round-trip path (unless the client asked
  // for tx=rollback), one job of the database worker held for its statements alone rather
  // than across four messages between threads. A read is interactive whatever its body's size
  // (a search's query embedding alone can pass 16 KB), unless its function is declared bulk
  // (`set localbase.queue = 'bulk'`), as every call of one is.
  // Its database job is named by method and relation or function, what its cost follows.
  const job = `rest ${method} ${rpc ? 'rpc ' : ''}${schema}.${req.name}`
  if (!plan.rollback && (plan.readOnly || !plan.refusable)) {
    const { db } = state.ctx
    const statement = plan.readOnly
      ? () => db.readAsUser(context, plan.sql, plan.values)
      : () => db.writeAsUser(context, plan.sql, plan.values)
    const named = () => withJobKey(job, statement)
    const [row] = await (plan.bulk ? asBulk(named) : named())
    if (!row) throw new ApiError(500, 'PGRST000', 'the statement returned no row')
    return plan.finish(row as ResultRow)
  }
  const write = () => withJobKey(job, () => state.ctx.db.asUser(context, (tx) => execute(tx, plan)))
  try {
    return await (plan.bulk ? asBulk(write) : write())
  } catch (error) {
    if (error instanceof Rollback) return error.outcome
    throw error
  }
}

type Tx = Parameters<Parameters<RestState['ctx']['db']['asUser']>[1]>[0]

async function execute(tx: Tx, plan: Plan): Promise<Outcome> {
  if (plan.readOnly) await tx.exec('set transaction read only')
  const result = await tx.query<ResultRow>(plan.sql, plan.values)
  const row = result.rows[0]
  if (!row) throw new ApiError(500, 'PGRST000', 'the statement returned no row')
  const outcome = plan.finish(row)
  if (plan.rollback) throw new Rollback(outcome)
  return outcome
}
