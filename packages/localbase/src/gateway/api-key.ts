import type { MiddlewareHandler } from 'hono'
import type { UpgradeHandler } from '../context.ts'
import type { CallerResolver } from './caller.ts'
import { writeResponse } from './socket-response.ts'

// The API gateway's key check, in front of every service as on hosted Supabase: a key that is
// not one of the project's is refused before any service sees the request. The bodies are the
// hosted gateway's: "Invalid API key" for legacy (JWT) keys and anything unrecognisable,
// "Unregistered API key" for an unknown `sb_publishable_`/`sb_secret_` key. Requests without
// any key are left to each service, as under the Supabase CLI (docs §2, postgrest-js's tests).

const invalid = {
  message: 'Invalid API key',
  hint: 'Double check your Supabase `anon` or `service_role` API key.',
}
const unregistered = {
  message: 'Unregistered API key',
  hint: 'Double check the provided API key as it is not registered for this project.',
}

// Routes the hosted gateway leaves open: links in mails and OAuth redirects carry no key.
const openRoutes = /^\/auth\/v1\/(verify|callback|authorize|\.well-known\/jwks\.json)\/?$/

type Presented = {
  path: string
  apikey: string | null | undefined
  queryKey: string | null | undefined
  authorization: string | null | undefined
}

/** The 401 for the first key that is not the project's, or null when all are (or none given). */
export function apiKeyRefusal(callers: CallerResolver, request: Presented): Response | null {
  if (openRoutes.test(request.path)) return null
  // An `sb_` key as the bearer stands for its role too (caller.ts), so it is checked as a key.
  const bearer = /^bearer\s+(sb_\S+)\s*$/i.exec(request.authorization ?? '')?.[1]
  for (const key of [request.apikey, request.queryKey, bearer]) {
    if (!key || callers.apiKeyRole(key)) continue
    return Response.json(key.startsWith('sb_') ? unregistered : invalid, {
      status: 401,
      statusText: 'Unauthorized',
    })
  }
  return null
}

/** The check for HTTP requests. Preflights carry no credentials, so they pass. */
export function apiKeyGate(callers: CallerResolver): MiddlewareHandler {
  return async (c, next) => {
    const refused =
      c.req.method === 'OPTIONS'
        ? null
        : apiKeyRefusal(callers, {
            path: c.req.path,
            apikey: c.req.header('apikey'),
            queryKey: c.req.query('apikey'),
            authorization: c.req.header('authorization'),
          })
    if (refused) return refused
    await next()
  }
}

/** The same check for a service's WebSocket upgrades (the Realtime socket's `?apikey=`). */
export function guardUpgrade(
  callers: CallerResolver,
  prefix: string,
  upgrade: UpgradeHandler,
): UpgradeHandler {
  return (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (!url.pathname.startsWith(`${prefix}/`)) return upgrade(req, socket, head)
    const header = (name: string) => {
      const value = req.headers[name]
      return typeof value === 'string' ? value : undefined
    }
    const refused = apiKeyRefusal(callers, {
      path: url.pathname,
      apikey: header('apikey'),
      queryKey: url.searchParams.get('apikey'),
      authorization: header('authorization'),
    })
    if (!refused) return upgrade(req, socket, head)
    socket.on('error', () => socket.destroy())
    void writeResponse(socket, refused)
    return true
  }
}
