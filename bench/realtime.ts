// Realtime latency: broadcast fan-out to 100 sockets, and postgres_changes commit-to-delivery
// for 20 signed-in subscribers under RLS. Prints a summary and a final JSON line.
// Run: node bench/realtime.ts
import { performance } from 'node:perf_hooks'
import type { SupabaseClient } from '@supabase/supabase-js'
import { startTestStack } from '../packages/localbase/test/helpers.ts'
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

const stack = await startTestStack('realtime')
const clients: SupabaseClient[] = []
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN
  const round = (n: number) => Math.round(n * 100) / 100
  return { samples: sorted.length, p50: round(at(0.5)), p95: round(at(0.95)), max: round(at(1)) }
}

async function broadcastBench() {
  const latencies: number[] = []
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const client = realtimeClient(stack)
    clients.push(client)
    await subscribed(
      client
        .channel('bench')
        .on('broadcast', { event: 'tick' }, ({ payload }) =>
          latencies.push(performance.now() - (payload as { t: number }).t),
        ),
    )
  }
  const senderClient = realtimeClient(stack)
  clients.push(senderClient)
  const sender = await subscribed(senderClient.channel('bench'))
  for (let i = 0; i < MESSAGES; i++) {
    await sender.send({ type: 'broadcast', event: 'tick', payload: { t: performance.now() } })
    await sleep(10)
  }
  await sleep(500)
  return { subscribers: SUBSCRIBERS, messages: MESSAGES, ...percentiles(latencies) }
}

async function changesBench() {
  const latencies: number[] = []
  // Keyed by title and stamped just before the insert, so the time includes the write itself.
  const written = new Map<string, number>()
  const users = []
  for (let i = 0; i < CHANGE_SUBSCRIBERS; i++) {
    const user = await makeUser(stack)
    users.push(user)
    const client = realtimeClient(stack)
    clients.push(client)
    await client.realtime.setAuth(user.token)
    await subscribed(
      client
        .channel(`changes-${i}`)
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'todos' }, (change) => {
          const at = written.get((change.new as { title: string }).title)
          if (at !== undefined) latencies.push(performance.now() - at)
        }),
    )
  }
  for (let i = 0; i < CHANGES; i++) {
    const owner = users[i % users.length]!
    written.set(`todo ${i}`, performance.now())
    await stack.db.pg.query(`insert into public.todos (owner_id, title) values ($1, $2)`, [
      owner.id,
      `todo ${i}`,
    ])
    await sleep(5)
  }
  await sleep(1000)
  return { subscribers: CHANGE_SUBSCRIBERS, changes: CHANGES, ...percentiles(latencies) }
}

try {
  const broadcast = await broadcastBench()
  console.log(
    `broadcast to ${SUBSCRIBERS} subscribers: p50 ${broadcast.p50} ms, p95 ${broadcast.p95} ms`,
  )
  const changes = await changesBench()
  console.log(
    `postgres_changes, ${CHANGE_SUBSCRIBERS} subscribers under RLS: p50 ${changes.p50} ms, p95 ${changes.p95} ms`,
  )
  const ok =
    broadcast.samples === SUBSCRIBERS * MESSAGES &&
    changes.samples === CHANGES &&
    broadcast.p95 <= TARGET_P95_MS
  console.log(
    JSON.stringify({
      bench: 'realtime',
      broadcast,
      postgres_changes: changes,
      target_p95_ms: TARGET_P95_MS,
      ok,
    }),
  )
} finally {
  for (const client of clients) await client.removeAllChannels()
  await stack.stop()
}
