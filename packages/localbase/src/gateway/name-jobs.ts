import type { MiddlewareHandler } from 'hono'
import { matchedRoutes } from 'hono/route'
import { withJobKey } from '../db/work-queue.ts'

/**
 * Names a request's database jobs by its service, method and the route that answers it
 * (`auth POST /auth/v1/token`, `storage GET /storage/v1/object/:bucket/:key{.+}`), so that the
 * database queue learns what each route holds the worker for (see WorkQueue). The route is the
 * first one registered for a method, as middleware is registered for all; a service answering
 * every path from one route (REST) names its jobs more closely itself.
 */
export function nameJobs(service: string): MiddlewareHandler {
  return (c, next) => {
    const route = matchedRoutes(c).find((matched) => matched.method !== 'ALL')
    return withJobKey(`${service} ${c.req.method} ${route?.path ?? '*'}`, next)
  }
}
