import { Hono } from 'hono'
import type { Service, ServiceContext } from '../context.ts'

// Placeholder until the realtime service lands.
export async function createRealtimeService(ctx: ServiceContext): Promise<Service> {
  void ctx
  const app = new Hono()
  app.all('*', (c) => c.json({ message: 'realtime is not implemented yet' }, 501))
  return { name: 'realtime', prefix: '/realtime/v1', app }
}
