import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ServiceContext } from '../context.ts'
import { defaultDenoDir, denoCommand, entryOf, writeImportMap } from './deno.ts'
import { functionEnv } from './env.ts'
import { watchTree } from './watch-tree.ts'
import { FunctionWorker } from './worker.ts'

const functionName = /^[A-Za-z0-9][A-Za-z0-9_-]*$/

/**
 * The warm Deno processes of one project, one per function, started on first call.
 * Watching supabase/functions restarts a function when its folder changes, and every
 * function when shared code (`_shared/`, `.env`, import maps) changes.
 */
export class FunctionRegistry {
  private readonly workers = new Map<string, FunctionWorker>()
  private readonly functionsDir: string
  /** Where merged import maps go; made on first use, so projects without functions leave nothing. */
  private scratch: string | null = null
  private watcher: { close(): void } | null = null
  private readonly ctx: ServiceContext
  constructor(ctx: ServiceContext) {
    this.ctx = ctx
    this.functionsDir = join(ctx.config.supabaseDir, 'functions')
    this.watch()
  }

  /** Starts watching once supabase/functions exists (it may be created after start-up). */
  private watch() {
    if (this.watcher || !existsSync(this.functionsDir)) return
    this.watcher = watchTree(this.functionsDir, (file) => this.changed(file))
  }

  /** The worker for a function folder, or null when there is no such function. */
  get(name: string): FunctionWorker | null {
    if (!functionName.test(name)) return null
    const existing = this.workers.get(name)
    if (existing) return existing
    const cwd = join(this.functionsDir, name)
    const entry = entryOf(cwd)
    if (!entry) return null
    this.watch()
    const worker = new FunctionWorker({
      name,
      entry,
      cwd,
      importMap: writeImportMap(
        (this.scratch ??= mkdtempSync(join(tmpdir(), 'localbase-functions-'))),
        this.functionsDir,
        name,
      ),
      env: functionEnv(this.ctx, defaultDenoDir()),
      deno: denoCommand(),
      bootTimeoutMs: 120_000,
    })
    this.workers.set(name, worker)
    return worker
  }

  private changed(file: string) {
    const first = file.split(/[\\/]/)[0] ?? ''
    // Function names have no dots; `_shared/`, `.env` and import maps concern everyone.
    const shared = !functionName.test(first)
    const affected = shared ? [...this.workers.keys()] : this.workers.has(first) ? [first] : []
    for (const name of affected) void this.restart(name)
  }

  /** Forgets a function's process; the next call reads its files and env afresh. */
  async restart(name: string): Promise<void> {
    const worker = this.workers.get(name)
    this.workers.delete(name)
    await worker?.stop()
  }

  async close(): Promise<void> {
    this.watcher?.close()
    await Promise.all([...this.workers.keys()].map((name) => this.restart(name)))
    if (this.scratch) rmSync(this.scratch, { recursive: true, force: true })
  }
}
