import { Hono } from 'hono'
import type { Service, ServiceContext } from '../context.ts'

// Placeholder until the rest service lands.
export async function createRestService(ctx: ServiceContext): Promise<Service> {
  void ctx
  const app = new Hono()
  app.all('*', (c) => c.json({ message: 'rest is not implemented yet' }, 501))
  return { name: 'rest', prefix: '/rest/v1', app }
}
