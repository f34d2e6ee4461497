import { Hono } from 'hono'
import type { Service, ServiceContext } from '../context.ts'

// Placeholder until the functions service lands.
export async function createFunctionsService(ctx: ServiceContext): Promise<Service> {
  void ctx
  const app = new Hono()
  app.all('*', (c) => c.json({ message: 'functions is not implemented yet' }, 501))
  return { name: 'functions', prefix: '/functions/v1', app }
}
