import type { Context } from 'hono'
import type { ServiceContext } from '../context.ts'
import type { RequestContext, Transaction } from '../db/database.ts'
import type { Caller } from '../gateway/caller.ts'
import type { DiskStore } from './disk.ts'
import { credentialError, errors, fromDatabase, StorageError } from './errors.ts'

/** What every storage route works with. */
export type Env = { sc: ServiceContext; store: DiskStore }

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The caller of one storage request and how to reach the database as them. */
export type Requester = {
  caller: Caller
  /** `owner` (uuid) and `owner_id` (text) as storage records them, from the JWT's sub. */
  owner: string | null
  ownerId: string | null
  /** Runs fn in one transaction under the caller's role and claims, mapping database errors. */
  as<T>(operation: string, fn: (tx: Transaction) => Promise<T>): Promise<T>
}

export async function requester(sc: ServiceContext, c: Context): Promise<Requester> {
  const apikey = c.req.header('apikey') ?? null
  const authorization = c.req.header('authorization') ?? null
  // Storage verifies the bearer itself: with no credentials at all it has an empty token,
  // which jose refuses; it never falls back to anon the way PostgREST does.
  if (!apikey && !authorization) throw errors.accessDenied('Invalid Compact JWS')
  const result = await sc.callers.resolve(apikey, authorization)
  if (!result.ok) throw credentialError(result.error)
  const caller = result.caller
  const sub = typeof caller.claims.sub === 'string' ? caller.claims.sub : null
  const base: Omit<RequestContext, 'settings'> = {
    role: caller.role,
    claims: caller.claims,
    headers: Object.fromEntries(c.req.raw.headers),
    method: c.req.method,
    path: new URL(c.req.url).pathname,
  }
  return {
    caller,
    owner: sub && uuid.test(sub) ? sub : null,
    ownerId: sub,
    as: (operation, fn) =>
      guard(() => sc.db.asUser({ ...base, settings: { 'storage.operation': operation } }, fn)),
  }
}

/** Runs a database call, turning Postgres errors into storage's error shapes. */
export async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    if (error instanceof StorageError) throw error
    const mapped = fromDatabase(error)
    if (mapped) throw mapped
    throw error
  }
}

// storage's own rules (src/storage/limits.ts): S3-safe characters only, so a key that works
// here works on hosted Supabase. Bytes live under version ids, so no key reaches the disk.
const validKey = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]+$/
const validBucketName = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]+$/

export function checkKey(key: string): string {
  if (!validKey.test(key) || key.length > 1024) throw errors.invalidKey(key)
  return key
}

export function checkBucketName(name: unknown): string {
  if (typeof name !== 'string' || name.length > 100 || !validBucketName.test(name)) {
    throw errors.invalidBucketName()
  }
  return name
}

/** A JSON request body, or a clear 400 when it is not JSON. */
export async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text()
  if (!text) return {}
  try {
    const value = JSON.parse(text)
    if (value && typeof value === 'object' && !Array.isArray(value)) return value
  } catch {
    // fall through to the error below
  }
  throw errors.invalidRequest('Body is not valid JSON')
}
