import type { Context } from 'hono'
import { clientAddress } from '../gateway/client-address.ts'

/** What a new session records about the client that started it. */
export const clientOf = (c: Context) => ({
  userAgent: c.req.header('user-agent'),
  ip: clientAddress(c),
})
