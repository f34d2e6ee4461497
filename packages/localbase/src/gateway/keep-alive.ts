import type { Server } from 'node:http'
import type { Socket } from 'node:net'

/** How late a keep-alive timer may fire and still be trusted to mean "idle that long". */
const LATE_MS = 500
/** What a connection whose timer fired late gets instead: time for its client's timers to run. */
const GRACE_MS = 2_000

/**
 * Closes idle keep-alive connections only on a timer that fired on time. The keep-alive race:
 * a long synchronous job on this thread (PGlite's statements, before they moved to their
 * worker) held back every timer at once, the server's and those of any client in the same
 * process (a bench, a test, a function runner); when the thread came back, fetch sent its
 * next request on the pooled connection its own late timer had not yet expired, and the
 * server's late timer then closed it under that request ("fetch failed", ECONNRESET). A timer
 * that fires late proves the thread was blocked, so the idle time it measured was not the
 * clients' to see: such a connection gets a grace period, during which a request that was
 * already sent is served and an idle client's own timer closes it, as it does on time.
 */
export function closeIdleOnTimeOnly(server: Server): void {
  /** When an idle connection's keep-alive timer is due (Node arms it as a response ends). */
  const dueAt = new WeakMap<Socket, number>()
  server.on('request', (req, res) => {
    dueAt.delete(req.socket)
    res.once('finish', () => {
      dueAt.set(
        req.socket,
        performance.now() + server.keepAliveTimeout + server.keepAliveTimeoutBuffer,
      )
    })
  })
  // With a 'timeout' listener Node leaves the closing to it (socketOnTimeout).
  server.on('timeout', (socket: Socket) => {
    const due = dueAt.get(socket)
    // A request under way has no due time: its own timeouts close it as Node would.
    if (due !== undefined && performance.now() - due > LATE_MS) {
      dueAt.set(socket, performance.now() + GRACE_MS)
      socket.setTimeout(GRACE_MS)
      return
    }
    socket.destroy()
  })
}
