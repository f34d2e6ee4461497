// Realtime latency: broadcast fan-out to 100 sockets, and postgres_changes commit-to-delivery
// for 20 signed-in subscribers under RLS, with REST latency measured during those writes. The subscribers live in a worker thread so that
// their decoding does not share the server's event loop. Prints a final JSON line.
// Run: node bench/realtime.ts
import { performance } from 'node:perf_hooks'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { DEFAULT_ANON_KEY } from '../packages/localbase/src/config/keys.ts'
import { startTestStack, type TestStack } from '../packages/localbase/test/helpers.ts'
import {
  makeUser,
  realtimeClient,
  subscribed,
} from '../packages/localbase/test/realtime-helpers.ts'

const SUBSCRIBERS = 100
const MESSAGES = 100
const CHANGE_SUBSCRIBERS = 20
const CHANGES = 200
const TARGET_P95_MS = 50

/** Wall-clock milliseconds comparable across threads. */
const now = () => performance.timeOrigin + performance.now()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Arrival = { kind: 'broadcast' | 'change'; key: string; at: number }
type Setup = { url: string; tokens: string[] }

async function subscribers({ url, tokens }: Setup) {
  const stack = { url } as TestStack
  const report = (arrival: Arrival) => parentPort!.postMessage(arrival)
  for (let i = 0; i < SUBSCRIBERS; i++) {
    await subscribed(
      realtimeClient(stack, { key: DEFAULT_ANON_KEY })
        .channel('bench')
        .on('broadcast', { event: 'tick' }, ({ payload }) =>
          report({ kind: 'broadcast', key: String((payload as { t: number }).t), at: now() }),
        ),
    )
  }
  for (const [i, token] of tokens.entries()) {
    const client = realtimeClient(stack)
    await client.realtime.setAuth(token)
    await subscribed(
      client
        .channel(`changes-${i}`)
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'todos' }, (change) =>
          report({ kind: 'change', key: (change.new as { title: string }).title, at: now() }),
        ),
    )
  }
  parentPort!.postMessage('ready')
}

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN
  const round = (n: number) => Math.round(n * 100) / 100
  return { samples: sorted.length, p50: round(at(0.5)), p95: round(at(0.95)), max: round(at(1)) }
}

async function main() {
  const stack = await startTestStack('realtime')
  const users = []
  for (let i = 0; i < CHANGE_SUBSCRIBERS; i++) users.push(await makeUser(stack))
  const arrivals: Arrival[] = []
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { url: stack.url, tokens: users.map((u) => u.token) } satisfies Setup,
  })
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (m: Arrival | 'ready') => (m === 'ready' ? resolve() : arrivals.push(m)))
    worker.on('error', reject)
  })
  const senderClient = realtimeClient(stack)
  try {
    const sender = await subscribed(senderClient.channel('bench'))
    for (let i = 0; i < MESSAGES; i++) {
      await sender.send({ type: 'broadcast', event: 'tick', payload: { t: now() } })
      await sleep(10)
    }
    // REST keeps being served while the change feed checks RLS for every write.
    const restLatencies: number[] = []
    let writing = true
    const rest = (async () => {
      const client = stack.client()
      while (writing) {
        const started = now()
        const { error } = await client.from('items').select('id').limit(1)
        if (error) throw new Error(error.message)
        restLatencies.push(now() - started)
        await sleep(20)
      }
    })()
    const written = new Map<string, number>()
    for (let i = 0; i < CHANGES; i++) {
      const owner = users[i % users.length]!
      written.set(`todo ${i}`, now())
      await stack.db.pg.query(`insert into public.todos (owner_id, title) values ($1, $2)`, [
        owner.id,
        `todo ${i}`,
      ])
      await sleep(5)
    }
    writing = false
    await rest
    await sleep(1500)
    const broadcast = percentiles(
      arrivals.filter((a) => a.kind === 'broadcast').map((a) => a.at - Number(a.key)),
    )
    const changes = percentiles(
      arrivals.filter((a) => a.kind === 'change').map((a) => a.at - written.get(a.key)!),
    )
    console.log(`broadcast to ${SUBSCRIBERS}: p50 ${broadcast.p50} ms, p95 ${broadcast.p95} ms`)
    const restDuringWrites = percentiles(restLatencies)
    console.log(
      `postgres_changes, ${CHANGE_SUBSCRIBERS} under RLS: p50 ${changes.p50} ms, p95 ${changes.p95} ms`,
    )
    console.log(
      `REST during the writes: p50 ${restDuringWrites.p50} ms, p95 ${restDuringWrites.p95} ms`,
    )
    const ok =
      broadcast.samples === SUBSCRIBERS * MESSAGES &&
      changes.samples === CHANGES &&
      broadcast.p95 <= TARGET_P95_MS
    console.log(
      JSON.stringify({
        bench: 'realtime',
        broadcast: { subscribers: SUBSCRIBERS, messages: MESSAGES, ...broadcast },
        postgres_changes: { subscribers: CHANGE_SUBSCRIBERS, changes: CHANGES, ...changes },
        rest_during_writes: restDuringWrites,
        target_p95_ms: TARGET_P95_MS,
        ok,
      }),
    )
  } finally {
    await senderClient.removeAllChannels()
    await worker.terminate()
    await stack.stop()
  }
}

if (isMainThread) await main()
else await subscribers(workerData as Setup)
