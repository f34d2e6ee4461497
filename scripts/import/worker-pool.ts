import { Worker } from 'node:worker_threads'
import { ExtractError, type ExtractErrorCode } from '../../packages/core/src/extract/errors.ts'
import type { ExtractInput } from '../../packages/core/src/extract/types.ts'
import type { Processed } from '../../packages/core/src/ingest/types.ts'

type Reply = { processed?: Processed; error?: { code?: ExtractErrorCode; message: string } }
type Job = { input: ExtractInput; resolve: (p: Processed) => void; reject: (e: Error) => void }

/**
 * Extraction and chunking on `size` worker threads (both are CPU-bound; uploads and inserts
 * stay on the main thread, concurrently). `process` has ingestFile's ProcessFile shape.
 */
export class WorkerPool {
  private readonly idle: Worker[] = []
  private readonly queue: Job[] = []
  private readonly running = new Map<Worker, Job>()
  private closed = false

  constructor(size: number) {
    for (let i = 0; i < size; i++) this.spawn()
  }

  process = (input: ExtractInput): Promise<Processed> =>
    new Promise((resolve, reject) => {
      this.queue.push({ input, resolve, reject })
      this.dispatch()
    })

  async close(): Promise<void> {
    this.closed = true
    await Promise.all([...this.idle, ...this.running.keys()].map((w) => w.terminate()))
  }

  private spawn() {
    const worker = new Worker(new URL('./worker.ts', import.meta.url))
    worker.on('message', (reply: Reply) => this.settle(worker, reply))
    // A thread that dies (out of memory on a huge file) fails its file and is replaced.
    worker.on('error', (error) => {
      this.running.get(worker)?.reject(new Error(`the extraction thread failed: ${error.message}`))
      this.running.delete(worker)
      if (!this.closed) this.spawn()
    })
    this.idle.push(worker)
    this.dispatch()
  }

  private dispatch() {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const job = this.queue.shift()!
      const worker = this.idle.pop()!
      this.running.set(worker, job)
      worker.postMessage(job.input)
    }
  }

  private settle(worker: Worker, { processed, error }: Reply) {
    const job = this.running.get(worker)
    this.running.delete(worker)
    this.idle.push(worker)
    if (job && processed) job.resolve(processed)
    else if (job && error?.code) job.reject(new ExtractError(error.code, error.message))
    else if (job) job.reject(new Error(error?.message ?? 'the extraction thread failed'))
    this.dispatch()
  }
}
