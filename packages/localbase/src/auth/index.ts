import { Hono } from 'hono'
import type { Service, ServiceContext } from '../context.ts'

// Placeholder until the auth service lands.
export async function createAuthService(ctx: ServiceContext): Promise<Service> {
  void ctx
  const app = new Hono()
  app.all('*', (c) => c.json({ message: 'auth is not implemented yet' }, 501))
  return { name: 'auth', prefix: '/auth/v1', app }
}
