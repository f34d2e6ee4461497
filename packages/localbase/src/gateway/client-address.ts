import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context, MiddlewareHandler } from 'hono'
import { canonicalIp, parseHop, type TrustedProxies } from './ip-address.ts'

declare module 'hono' {
  interface ContextVariableMap {
    clientAddress: string
  }
}

/**
 * Who is on the other end: the socket's peer, unless that peer is a proxy the operator trusts
 * (TRUSTED_PROXIES). Then `X-Forwarded-For` is read from the right, each trusted proxy having
 * appended the address it received from, and the first hop that is not a trusted proxy is the
 * client. Anything left of it was written by the client and proves nothing. A hop that is not
 * an address stops the walk at the proxy that reported it.
 */
export function clientAddressOf(
  remote: string | undefined,
  forwardedFor: string | undefined,
  trusted: TrustedProxies,
): string {
  const peer = canonicalIp(remote)
  if (!peer) return remote || 'unknown'
  if (!forwardedFor || !trusted.has(peer)) return peer
  let address = peer
  for (const hop of forwardedFor.split(',').reverse()) {
    const parsed = parseHop(hop)
    if (!parsed) return address
    address = parsed
    if (!trusted.has(address)) return address
  }
  // Every hop is a trusted proxy: the left-most is as far as anyone can tell.
  return address
}

/** Resolves each request's client address once, at the gateway. */
export function clientAddresses(trusted: TrustedProxies): MiddlewareHandler {
  return async (c, next) => {
    let remote: string | undefined
    try {
      remote = getConnInfo(c).remote.address
    } catch {
      // app.request() in tests has no socket.
    }
    c.set('clientAddress', clientAddressOf(remote, c.req.header('x-forwarded-for'), trusted))
    await next()
  }
}

/** The client's address, as every service keys limits and records sessions by it. */
export const clientAddress = (c: Context): string => c.get('clientAddress') ?? 'unknown'
