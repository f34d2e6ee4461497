import { setTimeout as sleep } from 'node:timers/promises'
import type { SignInGuard } from '../config/config.ts'
import { AuthError } from './errors.ts'

// Per-account protection for password sign-in, which GoTrue does not have: a limit per
// account would let anyone lock its owner out, so nothing here ever refuses the owner.
// Instead, once an account has taken `freeFailures` wrong passwords, every further attempt on
// it from an address that has not signed in to it before queues in the account's one lane
// and waits there (1 s, 2 s, 4 s... up to the cap) before its password is checked. Guesses
// from any number of addresses then run one at a time, at most one per wait; the owner with
// the right password gets in after a wait, at once from an address they have signed in from.

const HOUR = 60 * 60 * 1000
/** Addresses remembered per account, newest last. */
const KNOWN_PER_ACCOUNT = 20

type Account = {
  /**
   * Wrong passwords, forgotten an hour after the last one. The owner signing in does not clear
   * them, or every sign-in would hand an ongoing attack its free guesses back.
   */
  failures: number
  lastFailure: number
  /** Unqueued checks under way, counted so that a burst cannot all slip in as free ones. */
  running: number
  /** The end of the lane: resolves when the last queued attempt is done. */
  lane: Promise<void>
  /** Addresses with an attempt in the lane: one each. */
  queued: Set<string>
}

export class PasswordGuard {
  private readonly config: SignInGuard
  private readonly accounts = new Map<string, Account>()
  private readonly known = new Map<string, string[]>()

  constructor(config: SignInGuard) {
    this.config = config
  }

  /**
   * Runs `verify` for a sign-in on `account` from `address` (it answers what the right
   * password unlocks, or null), first waiting in the account's lane when it is under attack. A
   * second attempt from the same address while one waits is refused with 429, which only its
   * sender ever sees.
   */
  async check<T>(
    account: string,
    address: string,
    signal: AbortSignal | undefined,
    verify: () => Promise<T | null>,
  ): Promise<T | null> {
    const state = this.account(account)
    const knownAddress = this.known.get(account)?.includes(address) ?? false
    if (knownAddress || state.failures + state.running < this.config.freeFailures) {
      state.running++
      try {
        return this.record(account, address, state, await verify())
      } finally {
        state.running--
      }
    }
    if (state.queued.has(address)) {
      throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached')
    }
    state.queued.add(address)
    const previous = state.lane
    let done!: () => void
    state.lane = new Promise((resolve) => (done = resolve))
    try {
      await previous
      await sleep(this.delay(state.failures), undefined, { signal })
      return this.record(account, address, state, await verify())
    } catch (error) {
      if (!signal?.aborted) throw error
      // The client has gone; nobody reads this answer.
      throw new AuthError(
        504,
        'request_timeout',
        'Processing this request timed out, please retry after a moment.',
      )
    } finally {
      state.queued.delete(address)
      done()
    }
  }

  private delay(failures: number): number {
    const doublings = Math.max(0, failures - this.config.freeFailures)
    return Math.min(this.config.delayMs * 2 ** Math.min(doublings, 30), this.config.maxDelayMs)
  }

  private account(key: string): Account {
    const now = Date.now()
    let state = this.accounts.get(key)
    if (state && now - state.lastFailure > HOUR) state.failures = 0
    if (!state) {
      if (this.accounts.size >= 100_000) this.forgetQuiet(now)
      state = {
        failures: 0,
        lastFailure: 0,
        running: 0,
        lane: Promise.resolve(),
        queued: new Set(),
      }
      this.accounts.set(key, state)
    }
    return state
  }

  private record<T>(account: string, address: string, state: Account, found: T | null): T | null {
    if (found === null) {
      state.failures++
      state.lastFailure = Date.now()
      return null
    }
    const addresses = (this.known.get(account) ?? []).filter((a) => a !== address)
    addresses.push(address)
    this.known.delete(account)
    this.known.set(account, addresses.slice(-KNOWN_PER_ACCOUNT))
    // The oldest accounts go first: a Map iterates in insertion order.
    if (this.known.size > 100_000) this.known.delete(this.known.keys().next().value as string)
    return found
  }

  private forgetQuiet(now: number): void {
    for (const [key, state] of this.accounts) {
      const idle = state.running === 0 && state.queued.size === 0
      if (idle && now - state.lastFailure > HOUR) this.accounts.delete(key)
    }
  }
}
