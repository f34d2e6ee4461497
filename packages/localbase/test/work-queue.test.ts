import { AsyncLocalStorage } from 'node:async_hooks'
import { describe, expect, it } from 'vitest'
import { PGliteEngine } from '../src/db/pglite-engine.ts'
import { asBulk, bulkShareFromEnv, withJobKey, WorkQueue } from '../src/db/work-queue.ts'

/**
 * A queue on a clock the jobs advance themselves: each job "runs" for its ms, so the turns
 * follow from the policy alone, whatever the machine's load.
 */
function harness(options: { share?: number; maxBulkWaitMs?: number; maxSlowdown?: number } = {}) {
  let clock = 0
  const queue = new WorkQueue({ ...options, now: () => clock })
  const order: string[] = []
  /**
   * A job named `name`, its key the name up to a number ("list 2" is a "list"); `meanwhile`
   * runs while it holds the worker.
   */
  const job = (name: string, ms: number, meanwhile = () => {}) => {
    const work = () =>
      withJobKey(name.replace(/ ?\d+$/, ''), () =>
        queue.run(async () => {
          order.push(name)
          meanwhile()
          clock += ms
        }),
      )
    return name.startsWith('bulk') ? asBulk(work) : work()
  }
  /** Runs one job of each key alone, so the queue has measured them. */
  const learn = async (holds: Record<string, number>) => {
    for (const [key, ms] of Object.entries(holds)) await job(key, ms)
    order.length = 0
  }
  return { job, learn, order }
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

describe('WorkQueue: the shorter job first', () => {
  it('runs a cheap job queued behind an expensive one first', async () => {
    const { job, learn, order } = harness()
    await learn({ search: 10, list: 1 })
    await Promise.all([job('search 1', 10), job('search 2', 10), job('list 1', 1)])
    // The first search found the worker free; the list then overtakes the second.
    expect(order).toEqual(['search 1', 'list 1', 'search 2'])
  })

  it('lets a job overdue for its size go first, so a stream of short jobs cannot starve it', async () => {
    const { job, learn, order } = harness({ maxSlowdown: 4 })
    await learn({ search: 20, list: 5 })
    // A stream of lists: each queues the next while it runs, so a list always waits.
    const lists: Promise<void>[] = []
    const list = (i: number) => {
      lists.push(job(`list ${i}`, 5, () => i < 30 && list(i + 1)))
    }
    const started = [job('block', 1), job('search', 20)]
    list(1)
    await Promise.all(started)
    for (let i = 0; i < lists.length; i++) await lists[i]
    // Each list waits 5 ms, its own size; the search is overdue past 4 × 20 ms of waiting,
    // after the block and 16 lists.
    const names = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `list ${from + i}`)
    expect(order).toEqual(['block', ...names(1, 16), 'search', ...names(17, 30)])
  })

  it("learns each key's hold from what its jobs held lately, a new key counting as short", async () => {
    const { job, learn, order } = harness()
    await learn({ search: 10, report: 1 })
    await Promise.all([job('block', 1), job('search', 10), job('report', 1)])
    expect(order).toEqual(['block', 'report', 'search'])
    // Reports grow slow: three of 40 ms bring its mean (a fifth for each new hold) past 16 ms.
    await learn({ report: 40 })
    await learn({ report: 40 })
    await learn({ report: 40 })
    await Promise.all([job('block', 1), job('report', 40), job('search', 10)])
    expect(order).toEqual(['block', 'search', 'report'])
    order.length = 0
    // A key never seen goes before the search, as though short.
    await Promise.all([job('block', 1), job('search', 10), job('novel', 30)])
    expect(order).toEqual(['block', 'novel', 'search'])
  })

  it('keeps bulk work to its share, the shorter interactive jobs going first in their turn', async () => {
    const { job, learn, order } = harness({ share: 0.5 })
    await learn({ search: 30, list: 10 })
    const jobs = [job('bulk 1', 100), job('search 1', 30), job('search 2', 30)]
    for (let i = 1; i <= 4; i++) jobs.push(job(`list ${i}`, 10))
    jobs.push(job('bulk 2', 100), job('search 3', 30))
    await Promise.all(jobs)
    // 100 ms of bulk earns interactive work 100 ms: the four lists, then searches up to it.
    expect(order).toEqual([
      'bulk 1',
      'list 1',
      'list 2',
      'list 3',
      'list 4',
      'search 1',
      'search 2',
      'bulk 2',
      'search 3',
    ])
  })
})

describe('WorkQueue: the next job sent while one runs', () => {
  /**
   * Jobs that hand off at once and are answered when the test says (the worker answers in the
   * order it was sent); each answer moves the clock on by the job's ms.
   */
  function sentAhead(options: { share?: number } = {}) {
    let clock = 0
    const queue = new WorkQueue({ ...options, now: () => clock })
    const events: string[] = []
    const answers = new Map<string, () => void>()
    const job = (name: string, ms: number, handsOff = true) => {
      const work = () =>
        withJobKey(name.replace(/ ?\d+$/, ''), () =>
          queue.run(async (handOff) => {
            events.push(`${name} sent`)
            if (handsOff) handOff()
            await new Promise<void>((resolve) => answers.set(name, resolve))
            clock += ms
            events.push(`${name} answered`)
          }),
        )
      return name.startsWith('bulk') ? asBulk(work) : work()
    }
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
    /** Answers `name` once it has been sent. */
    const answer = async (name: string) => {
      await settle()
      answers.get(name)!()
      await settle()
    }
    return { job, answer, events, settle }
  }

  it('sends one job ahead once the running one has handed off, and no more', async () => {
    const { job, answer, events, settle } = sentAhead()
    const jobs = [job('a', 1), job('b', 1), job('c', 1)]
    await settle()
    expect(events).toEqual(['a sent', 'b sent'])
    await answer('a')
    expect(events).toEqual(['a sent', 'b sent', 'a answered', 'c sent'])
    await answer('b')
    await answer('c')
    await Promise.all(jobs)
  })

  it('keeps the next job back while the running one has not handed off (a transaction)', async () => {
    const { job, answer, events, settle } = sentAhead()
    const jobs = [job('tx', 1, false), job('b', 1)]
    await settle()
    expect(events).toEqual(['tx sent'])
    await answer('tx')
    expect(events).toEqual(['tx sent', 'tx answered', 'b sent'])
    await answer('b')
    await Promise.all(jobs)
  })

  it('does not send a second bulk job ahead of waiting requests while the first runs', async () => {
    const { job, answer, events, settle } = sentAhead({ share: 0.5 })
    const jobs = [job('bulk 1', 100), job('bulk 2', 100), job('list', 1)]
    await settle()
    // Sent while bulk 1 runs: the list, whose turn comes after it, not bulk 2.
    expect(events).toEqual(['bulk 1 sent', 'list sent'])
    await answer('bulk 1')
    await answer('list')
    await answer('bulk 2')
    await Promise.all(jobs)
    expect(events.slice(2)).toEqual([
      'bulk 1 answered',
      'bulk 2 sent', // nothing interactive waits: bulk 2 goes behind the list
      'list answered',
      'bulk 2 answered',
    ])
  })

  it('counts the hold of a job sent ahead from when the one before it ended', async () => {
    const { job, answer, events, settle } = sentAhead()
    // Alone, a search holds 10 ms; a report sent behind a 50 ms job holds 1 ms of its own.
    const learned = [job('search', 10)]
    await answer('search')
    learned.push(job('slow', 50), job('report', 1))
    await answer('slow')
    await answer('report')
    await Promise.all(learned)
    events.length = 0
    // Behind a block, the report (1 ms, not 51) goes before a search queued first.
    const jobs = [job('block', 1, false), job('search', 10), job('report', 1)]
    await settle()
    await answer('block')
    expect(events.slice(0, 3)).toEqual(['block sent', 'block answered', 'report sent'])
    await answer('report')
    await answer('search')
    await Promise.all(jobs)
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
