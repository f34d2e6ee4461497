import { Hono } from 'hono'
import type { Service, ServiceContext } from '../context.ts'

// Placeholder until the storage service lands.
export async function createStorageService(ctx: ServiceContext): Promise<Service> {
  void ctx
  const app = new Hono()
  app.all('*', (c) => c.json({ message: 'storage is not implemented yet' }, 501))
  return { name: 'storage', prefix: '/storage/v1', app }
}
