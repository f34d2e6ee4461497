import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createInterface } from 'node:readline'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { type DenoCommand, denoFlags } from './deno.ts'

export type WorkerOptions = {
  name: string
  entry: string
  cwd: string
  importMap: string
  env: NodeJS.ProcessEnv
  deno: DenoCommand
  /** How long the module may take to load, npm downloads included. */
  bootTimeoutMs: number
}

/** The function could not be loaded: syntax error, failed import, no handler. */
export class BootError extends Error {}

const bootstrap = fileURLToPath(new URL('./deno/bootstrap.js', import.meta.url))

/** One warm Deno process serving one function on a loopback port. */
export class FunctionWorker {
  private child: ChildProcess | null = null
  private ready: Promise<number> | null = null
  private readonly options: WorkerOptions
  constructor(options: WorkerOptions) {
    this.options = options
  }

  /** The port of the running process, starting it on first use (concurrent callers share one boot). */
  port(): Promise<number> {
    this.ready ??= this.boot().catch((error: unknown) => {
      this.ready = null
      throw error
    })
    return this.ready
  }

  private boot(): Promise<number> {
    const { name, entry, cwd, importMap, env, deno, bootTimeoutMs } = this.options
    const marker = `localbase-ready-${randomUUID()}`
    const args = [...deno.args, 'run', '--allow-all', '--no-prompt', ...denoFlags(importMap)]
    const child = spawn(deno.file, [...args, bootstrap, pathToFileURL(entry).href, marker], {
      cwd,
      env,
      // stdin stays an open pipe: the bootstrap exits at its EOF, so no process outlives us.
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    this.child = child
    const log = (line: string) => console.log(`[functions:${name}] ${line}`)
    createInterface({ input: child.stderr! }).on('line', (line) =>
      console.error(`[functions:${name}] ${line}`),
    )
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new BootError(`${name} did not start within ${bootTimeoutMs} ms`))
        child.kill('SIGKILL')
      }, bootTimeoutMs)
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (!line.startsWith(marker)) return log(line)
        clearTimeout(timer)
        resolve(Number(line.slice(marker.length)))
      })
      child.once('error', (error) => {
        clearTimeout(timer)
        reject(new BootError(`${name} could not be started: ${error.message}`))
      })
      child.once('exit', (code, signal) => {
        clearTimeout(timer)
        reject(new BootError(`${name} exited while booting (${signal ?? code})`))
        // A later call starts a fresh process (restart on crash).
        if (this.child === child) {
          this.child = null
          this.ready = null
        }
      })
    })
  }

  /** Ends the process; the next request boots a fresh one. */
  async stop(): Promise<void> {
    const child = this.child
    this.child = null
    this.ready = null
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
  }
}
