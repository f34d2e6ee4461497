import { AsyncLocalStorage } from 'node:async_hooks'
import { describe, expect, it } from 'vitest'
import { PGliteEngine } from '../src/db/pglite-engine.ts'
import { asBulk, bulkShareFromEnv, WorkQueue } from '../src/db/work-queue.ts'

/**
 * A queue on a clock the jobs advance themselves: each job "runs" for its ms, so the turns
 * follow from the policy alone, whatever the machine's load.
 */
function harness(options: { share?: number; maxBulkWaitMs?: number } = {}) {
  let clock = 0
  const queue = new WorkQueue({ ...options, now: () => clock })
  const order: string[] = []
  const job = (name: string, ms: number) => {
    const work = () =>
      queue.run(async () => {
        order.push(name)
        clock += ms
      })
    return name.startsWith('bulk') ? asBulk(work) : work()
  }
  return { job, order }
}

describe('WorkQueue', () => {
  it('runs bulk jobs back to back while nothing interactive waits', async () => {
    const { job, order } = harness()
    await Promise.all([job('bulk 1', 100), job('bulk 2', 100), job('bulk 3', 100)])
    expect(order).toEqual(['bulk 1', 'bulk 2', 'bulk 3'])
  })

  it('gives bulk work its share of the time while interactive jobs keep waiting', async () => {
    const { job, order } = harness({ share: 0.5 })
    // The first bulk job finds the worker free; everything else queues behind it.
    const jobs = [job('bulk 1', 100)]
    for (let i = 1; i <= 6; i++) jobs.push(job(`i${i}`, 30))
    jobs.push(job('bulk 2', 100), job('bulk 3', 100))
    await Promise.all(jobs)
    // 100 ms of bulk, then 100 ms of interactive work (4 × 30) before the next bulk job.
    expect(order).toEqual(['bulk 1', 'i1', 'i2', 'i3', 'i4', 'bulk 2', 'i5', 'i6', 'bulk 3'])
  })

  it('a larger share gives bulk work more turns', async () => {
    const { job, order } = harness({ share: 0.8 })
    const jobs = [job('bulk 1', 100)]
    for (let i = 1; i <= 4; i++) jobs.push(job(`i${i}`, 30))
    jobs.push(job('bulk 2', 100), job('bulk 3', 100))
    await Promise.all(jobs)
    // 100 ms of bulk earns interactive work 25 ms: one job each time.
    expect(order).toEqual(['bulk 1', 'i1', 'bulk 2', 'i2', 'bulk 3', 'i3', 'i4'])
  })

  it('lets requests wait at most maxBulkWaitMs of interactive work after a long bulk job', async () => {
    const { job, order } = harness({ share: 0.5, maxBulkWaitMs: 200 })
    const jobs = [job('bulk 1', 1000)]
    for (let i = 1; i <= 4; i++) jobs.push(job(`i${i}`, 100))
    jobs.push(job('bulk 2', 10))
    await Promise.all(jobs)
    expect(order).toEqual(['bulk 1', 'i1', 'i2', 'bulk 2', 'i3', 'i4'])
  })
})

describe('LOCALBASE_BULK_SHARE', () => {
  it('is half the worker unless set', () => {
    expect(bulkShareFromEnv({})).toBe(0.5)
    expect(bulkShareFromEnv({ LOCALBASE_BULK_SHARE: '' })).toBe(0.5)
    expect(bulkShareFromEnv({ LOCALBASE_BULK_SHARE: '0.7' })).toBe(0.7)
  })

  it('refuses a share that is not strictly between 0 and 1, naming the setting', () => {
    for (const given of ['0', '1', '1.5', '-0.2', 'half', '70%']) {
      expect(() => bulkShareFromEnv({ LOCALBASE_BULK_SHARE: given })).toThrow(
        `LOCALBASE_BULK_SHARE must be a number between 0 and 1, not "${given}"`,
      )
    }
  })

  it('keeps a server from opening its database with a bad share, before any thread starts', async () => {
    process.env.LOCALBASE_BULK_SHARE = '2'
    try {
      await expect(PGliteEngine.open(null)).rejects.toThrow(/LOCALBASE_BULK_SHARE must be/)
    } finally {
      delete process.env.LOCALBASE_BULK_SHARE
    }
  })
})

describe('WorkQueue and async context', () => {
  it("runs each job in its caller's context, whether it starts at once or waits", async () => {
    const queue = new WorkQueue()
    const caller = new AsyncLocalStorage<string>()
    const seen: Record<string, string | undefined> = {}
    const job = (name: string) =>
      caller.run(name, () =>
        queue.run(async () => {
          seen[name] = caller.getStore()
          await new Promise((resolve) => setTimeout(resolve, 5))
        }),
      )
    // The first finds the queue idle; the others wait and are started by the one before.
    await Promise.all([job('first'), job('second'), job('third')])
    await job('later')
    expect(seen).toEqual({ first: 'first', second: 'second', third: 'third', later: 'later' })
  })
})
