import { Hono } from 'hono'
import type { Service, ServiceContext } from '../context.ts'
import { bootError, idleTimeout, methodNotAllowed, notFound, workerError } from './errors.ts'
import { forward } from './proxy.ts'
import { FunctionRegistry } from './registry.ts'
import { functionsUpgrade } from './upgrade.ts'
import { verifyJwt } from './verify-jwt.ts'
import { BootError } from './worker.ts'

const prefix = '/functions/v1'
// The methods hosted Edge Functions accept; anything else is 405 (docs: status codes).
const methods = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
// Hosted answers within the request idle timeout (150 s) or gives up with 504.
const defaultTimeoutMs = 150_000

/** The function a path names (`/<name>/...`); '' when it names none. */
function functionName(path: string): string {
  try {
    return decodeURIComponent(path.split('/')[1] ?? '')
  } catch {
    return ''
  }
}

/**
 * Edge Functions at /functions/v1/<name>: each supabase/functions/<name>/index.ts runs in its
 * own warm Deno process and sees the request as hosted does, path prefix `/<name>` included.
 */
export async function createFunctionsService(ctx: ServiceContext): Promise<Service> {
  const registry = new FunctionRegistry(ctx)
  const timeoutMs = Number(ctx.config.env.FUNCTIONS_REQUEST_TIMEOUT_MS) || defaultTimeoutMs
  /** Functions whose last start failed, with why; a start that works clears it. */
  const bootFailures = new Map<string, string>()

  /** The platform's checks before a request reaches the function, then its process's port. */
  const admit = async (
    name: string,
    method: string,
    headers: Headers,
  ): Promise<{ refused: Response } | { port: number }> => {
    const worker = registry.get(name)
    if (!worker) return { refused: notFound() }
    if (!methods.has(method)) return { refused: methodNotAllowed() }
    // Preflight is the function's own business (hosted behaviour), so it skips verify_jwt.
    if (method !== 'OPTIONS' && (ctx.config.functions[name]?.verifyJwt ?? true)) {
      const refused = await verifyJwt(ctx.callers, headers.get('authorization') ?? undefined)
      if (refused) return { refused }
    }
    try {
      const port = await worker.port()
      bootFailures.delete(name)
      return { port }
    } catch (error) {
      if (!(error instanceof BootError)) throw error
      bootFailures.set(name, error.message)
      console.error(`[functions:${name}] ${error.message}`)
      return { refused: bootError() }
    }
  }

  const app = new Hono()
  app.all('*', async (c) => {
    const request = c.req.raw
    const url = new URL(request.url)
    const path = url.pathname.slice(url.pathname.indexOf(prefix) + prefix.length)
    const name = functionName(path)
    const admitted = await admit(name, request.method, request.headers)
    if ('refused' in admitted) return admitted.refused
    const result = await forward(admitted.port, request, path + url.search, timeoutMs)
    if (result.kind === 'response') return result.response
    if (request.signal.aborted) return workerError()
    // A process that stopped answering may be stuck in a loop: start afresh next time.
    await registry.restart(name)
    return result.kind === 'timeout' ? idleTimeout() : workerError()
  })

  return {
    name: 'functions',
    prefix,
    app,
    upgrade: functionsUpgrade(prefix, (path, headers) => admit(functionName(path), 'GET', headers)),
    close: () => registry.close(),
    degraded: () =>
      [...bootFailures].map(([name, message]) => `function ${name} fails to boot: ${message}`),
  }
}
