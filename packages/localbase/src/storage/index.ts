import { Hono } from 'hono'
import type { Service, ServiceContext } from '../context.ts'
import { bucketRoutes } from './buckets.ts'
import { DiskStore } from './disk.ts'
import { StorageError } from './errors.ts'
import { listV2Routes } from './list-v2.ts'
import { listRoutes } from './list.ts'
import { objectRoutes } from './objects.ts'
import { repair, seedBuckets } from './repair.ts'
import type { Env } from './request.ts'
import { signedRoutes } from './signed.ts'
import { tusRoutes } from './tus.ts'

/** Supabase Storage at /storage/v1: buckets, objects, signed URLs and TUS, bytes on disk. */
export async function createStorageService(sc: ServiceContext): Promise<Service> {
  const store = new DiskStore(sc.config.dataDir)
  await repair(sc, store)
  await seedBuckets(sc)
  const env: Env = { sc, store }

  const app = new Hono()
  bucketRoutes(app, env)
  const stopSweep = await tusRoutes(app, env)
  listRoutes(app, env)
  listV2Routes(app, env)
  signedRoutes(app, env)
  objectRoutes(app, env)
  app.notFound((c) => c.json(new StorageError(404, 'NotFound', 'Route not found').body(), 404))
  app.onError((error, c) => {
    if (error instanceof StorageError) return c.json(error.body(), error.http as 400)
    console.error(`[localbase storage] ${c.req.method} ${c.req.path}:`, error)
    return c.json(
      {
        statusCode: '500',
        code: 'InternalError',
        error: 'Internal',
        message: 'Internal Server Error',
      },
      500,
    )
  })
  return { name: 'storage', prefix: '/storage/v1', app, close: async () => stopSweep() }
}
