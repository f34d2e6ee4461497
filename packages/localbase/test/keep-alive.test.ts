import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../src/config/keys.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// The keep-alive race (gateway/keep-alive.ts): a client in the server's own process, its
// timers and the server's held back together by a long synchronous job on the thread.

/** Holds this thread as a long synchronous job did (PGlite's statements on the main thread). */
function holdThread(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // Busy: no timer or socket of this thread runs meanwhile.
  }
}

describe('keep-alive connections after the thread was held', () => {
  let stack: TestStack
  beforeAll(async () => {
    stack = await startTestStack()
    // fetch keeps a connection for the advertised 3 s less its 2 s margin; the server for 4 s.
    stack.server.keepAliveTimeout = 3_000
  })
  afterAll(() => stack?.stop())

  it('serve the request a client sent on them as the thread came back', async () => {
    // A POST, which fetch does not retry on another connection when this one is reset.
    const post = () =>
      fetch(`${stack.url}/rest/v1/rpc/no_such_function`, {
        method: 'POST',
        headers: { apikey: DEFAULT_ANON_KEY, 'content-type': 'application/json' },
        body: '{}',
      }).then((res) => res.status)
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) {
      statuses.push(await post())
      // Past both keep-alive timers: the client's (1 s) and the server's (4 s).
      holdThread(4_500)
      statuses.push(await post())
    }
    // Answered, every one (PostgREST's 404 for an unknown function), none reset.
    expect(statuses).toEqual([404, 404, 404, 404, 404, 404])
  }, 60_000)
})
