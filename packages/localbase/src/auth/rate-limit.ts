import { AuthError } from './errors.ts'

const WINDOW_MS = 5 * 60 * 1000

/** Password sign-in attempts per email and per client address, in a sliding window. */
export class SignInLimiter {
  private readonly limit: number
  private readonly hits = new Map<string, number[]>()
  constructor(limit: number) {
    this.limit = limit
  }

  /** Records one attempt under every key, or throws GoTrue's 429 when any is spent. */
  attempt(keys: string[]): void {
    const since = Date.now() - WINDOW_MS
    const recent = keys.map((key) => (this.hits.get(key) ?? []).filter((t) => t > since))
    if (recent.some((times) => times.length >= this.limit)) {
      throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached')
    }
    keys.forEach((key, i) => this.hits.set(key, [...recent[i]!, Date.now()]))
  }
}
