import { randomUUID } from 'node:crypto'
import {
  createClient,
  type RealtimeChannel,
  REALTIME_SUBSCRIBE_STATES,
  type SupabaseClient,
} from '@supabase/supabase-js'
import { SignJWT } from 'jose'
import { DEFAULT_ANON_KEY } from '../src/config/keys.ts'
import type { TestStack } from './helpers.ts'

/** A supabase-js client for realtime, on either serializer. */
export function realtimeClient(
  stack: TestStack,
  options: { key?: string; vsn?: '1.0.0' | '2.0.0' } = {},
): SupabaseClient {
  return createClient(stack.url, options.key ?? DEFAULT_ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { ...(options.vsn ? { vsn: options.vsn } : {}) },
  })
}

/** Subscribes and resolves once SUBSCRIBED; rejects with the error otherwise. */
export function subscribed(channel: RealtimeChannel): Promise<RealtimeChannel> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, error) => {
      if (status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) resolve(channel)
      else if (status !== REALTIME_SUBSCRIBE_STATES.CLOSED)
        reject(error ?? new Error(`channel ${status}`))
    })
  })
}

/** Collects values and lets a test wait for the next ones. */
export class Inbox<T> {
  readonly items: T[] = []
  private waiters: (() => void)[] = []
  push = (item: T): void => {
    this.items.push(item)
    for (const wake of this.waiters.splice(0)) wake()
  }

  async waitFor(count: number, timeoutMs = 3000): Promise<T[]> {
    const deadline = Date.now() + timeoutMs
    while (this.items.length < count) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`expected ${count} items, got ${this.items.length}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
    return this.items.slice(0, count)
  }
}

/** Lets frames in flight arrive, for asserting that something did NOT arrive. */
export const settle = (ms = 300) => new Promise((resolve) => setTimeout(resolve, ms))

/** A signed-in user: an auth.users row and an access token minted with the project secret. */
export async function makeUser(stack: TestStack, expiresIn: string | number = '1h') {
  const id = randomUUID()
  const email = `${id.slice(0, 8)}@example.test`
  await stack.db.pg.query(
    `insert into auth.users (id, email, aud, role) values ($1, $2, 'authenticated', 'authenticated')`,
    [id, email],
  )
  const token = await new SignJWT({ sub: id, role: 'authenticated', email, aud: 'authenticated' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(stack.config.keys.jwtSecret))
  return { id, email, token }
}
