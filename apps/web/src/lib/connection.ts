import { env } from '@/config/env'
import { isConnectionProblem } from './errors'

/** How often, while the server is unreachable, it is asked again; and the socket looked at. */
const PROBE_EVERY_MS = 2000

type Listener = () => void

/**
 * Whether this tab can reach the server: one monitor for the whole app, fed by every request
 * that fails for want of an answer and by the realtime socket dropping. A failure is only a
 * suspicion until a probe of Auth's health check fails too (a single aborted request must not
 * raise the alarm); once down, the probe runs until the server answers again.
 */
class ConnectionMonitor {
  private down = false
  private probing: Promise<void> | null = null
  private timer: ReturnType<typeof setTimeout> | undefined
  private readonly listeners = new Set<Listener>()

  subscribe = (listener: Listener) => {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  isDown = () => this.down

  /** A request failed without an answer, or the socket closed: check, and say so if down. */
  suspect() {
    this.probing ??= this.probe().finally(() => (this.probing = null))
  }

  /** An answer arrived: the server is reachable. */
  reachable() {
    if (this.down) this.set(false)
  }

  private async probe() {
    const ok = await fetch(`${env.SUPABASE_URL.replace(/\/$/, '')}/auth/v1/health`, {
      headers: { apikey: env.SUPABASE_PUBLISHABLE_KEY },
      cache: 'no-store',
    }).then(
      (response) => response.ok,
      () => false,
    )
    this.set(!ok)
    clearTimeout(this.timer)
    if (!ok) this.timer = setTimeout(() => this.suspect(), PROBE_EVERY_MS)
  }

  private set(down: boolean) {
    if (this.down === down) return
    this.down = down
    for (const listener of this.listeners) listener()
  }
}

export const connection = new ConnectionMonitor()

/** fetch, reporting to the monitor: no answer (or a gateway's 502–504) raises a suspicion. */
export const monitoredFetch: typeof fetch = async (input, init) => {
  try {
    const response = await fetch(input, init)
    if (response.status >= 502 && response.status <= 504) connection.suspect()
    else connection.reachable()
    return response
  } catch (error) {
    // A request this page gave up on (Stop, leaving a page) says nothing about the server.
    if (!init?.signal?.aborted && isConnectionProblem(error)) connection.suspect()
    throw error
  }
}

/**
 * Watches the client's realtime socket: while it has channels but is not connected, the
 * server is suspected down. The socket reconnects on its own; this only reports.
 */
export function watchRealtime(client: {
  getChannels: () => unknown[]
  realtime: { isConnected: () => boolean }
}) {
  setInterval(() => {
    if (client.getChannels().length > 0 && !client.realtime.isConnected()) connection.suspect()
  }, PROBE_EVERY_MS)
}
