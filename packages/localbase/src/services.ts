import type { Hono } from 'hono'
import { createAuthService } from './auth/index.ts'
import type { Service, ServiceContext, UpgradeHandler } from './context.ts'
import { createFunctionsService } from './functions/index.ts'
import { apiKeyGate, guardUpgrade } from './gateway/api-key.ts'
import { nameJobs } from './gateway/name-jobs.ts'
import { createRealtimeService } from './realtime/index.ts'
import { createRestService } from './rest/index.ts'
import { createStorageService } from './storage/index.ts'

export type MountedServices = {
  names: string[]
  upgrades: UpgradeHandler[]
  close(): Promise<void>
  degraded(): string[]
}

/**
 * Composes the five Supabase services on the one app, each under its own prefix and behind
 * the gateway's API key check, for HTTP and WebSocket alike; each request's database jobs are
 * named by its service and route.
 */
export async function mountServices(app: Hono, ctx: ServiceContext): Promise<MountedServices> {
  const services: Service[] = []
  const gate = apiKeyGate(ctx.callers)
  for (const create of [
    createRestService,
    createAuthService,
    createStorageService,
    createRealtimeService,
    createFunctionsService,
  ]) {
    const service = await create(ctx)
    app.use(`${service.prefix}/*`, gate, nameJobs(service.name))
    app.route(service.prefix, service.app)
    services.push(service)
  }
  return {
    names: services.map((s) => s.name),
    upgrades: services.flatMap((s) =>
      s.upgrade ? [guardUpgrade(ctx.callers, s.prefix, s.upgrade)] : [],
    ),
    degraded: () => services.flatMap((s) => s.degraded?.() ?? []),
    close: async () => {
      for (const s of services.reverse()) await s.close?.()
    },
  }
}
