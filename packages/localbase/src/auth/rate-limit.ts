import { isIPv6 } from 'node:net'
import { canonicalIp } from '../gateway/ip-address.ts'
import { AuthError } from './errors.ts'

// GoTrue's limiters (internal/api/apilimiter, internal/ratelimit).

const overRequestRate = () =>
  new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached')

// An IPv6 client usually holds a whole /64: counting each address apart would let it dodge
// every limit by changing the last 64 bits.
function limitKey(address: string): string {
  const ip = canonicalIp(address)
  if (!ip || !isIPv6(ip)) return address
  const [head = '', tail] = ip.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
  return `${groups.slice(0, 4).join(':')}::/64`
}

/**
 * A token bucket per client address, as tollbooth keys GoTrue's limiters: `burst` requests at
 * once, refilled at `perWindow` requests per window. Buckets refill completely once idle, so
 * an idle one is dropped rather than kept.
 */
export class AddressLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>()
  private readonly ratePerMs: number
  private readonly burst: number

  constructor(perWindow: number, windowMs: number, burst: number) {
    this.ratePerMs = perWindow / windowMs
    this.burst = burst
  }

  /** Spends one request for the address, or throws GoTrue's 429. */
  take(address: string): void {
    const now = Date.now()
    const key = limitKey(address)
    const bucket = this.buckets.get(key)
    const tokens = bucket
      ? Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.ratePerMs)
      : this.burst
    if (tokens < 1) throw overRequestRate()
    this.buckets.set(key, { tokens: tokens - 1, at: now })
    if (this.buckets.size > 10_000) this.forgetFull(now)
  }

  private forgetFull(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.ratePerMs >= this.burst) this.buckets.delete(key)
    }
  }
}

const MINUTE = 60 * 1000
const FIVE_MINUTES = 5 * MINUTE
const HOUR = 60 * 60 * 1000

/** The limiters behind `[auth.rate_limit]` (apilimiter.New); each route has its own. */
export function addressLimits(limits: {
  signInSignUps: number
  tokenRefresh: number
  tokenVerifications: number
  anonymousUsers: number
}) {
  // GoTrue lets 30 requests through at once whatever the configured rate.
  const per5m = (rate: number) => new AddressLimit(rate, FIVE_MINUTES, 30)
  return {
    token: per5m(limits.tokenRefresh),
    verify: per5m(limits.tokenVerifications),
    signup: per5m(limits.signInSignUps),
    otp: per5m(limits.signInSignUps),
    recover: per5m(limits.signInSignUps),
    resend: per5m(limits.signInSignUps),
    user: per5m(limits.signInSignUps),
    anonymous: new AddressLimit(limits.anonymousUsers, HOUR, limits.anonymousUsers),
    // MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY: 15 a minute, one bucket per route.
    factorChallenge: new AddressLimit(15, MINUTE, 30),
    factorVerify: new AddressLimit(15, MINUTE, 30),
  }
}

export type AddressLimits = ReturnType<typeof addressLimits>

/**
 * Mails per hour for the whole project (ratelimit.IntervalLimiter): the count starts afresh
 * each hour. `null` means no limit.
 */
export class EmailLimit {
  private readonly perHour: number | null
  private windowStart = Date.now()
  private sent = 0

  constructor(perHour: number | null) {
    this.perHour = perHour
  }

  /** Counts one mail about to go out, or throws GoTrue's 429 over_email_send_rate_limit. */
  take(): void {
    if (this.perHour === null) return
    const now = Date.now()
    if (now - this.windowStart >= HOUR) {
      this.windowStart += Math.floor((now - this.windowStart) / HOUR) * HOUR
      this.sent = 0
    }
    if (this.sent >= this.perHour) {
      throw new AuthError(429, 'over_email_send_rate_limit', 'email rate limit exceeded')
    }
    this.sent++
  }
}
