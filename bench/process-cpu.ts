import { readdirSync, readFileSync } from 'node:fs'

// CPU time of localbase's parts from /proc, for benches that run it as a child process: its
// database worker thread, its main thread (HTTP, gateway, REST), the process's other threads
// (V8's and libuv's helpers) and its children (the Edge Functions' Deno processes).
// The helpers are counted apart because they serve both isolates: V8 compiles hot code and
// tiers up PGlite's WASM there, and marks and sweeps both heaps. Over a short run most of
// their time is that warm-up (a perf profile of 200 list requests after 20 warm-up ones: JIT
// compilation, mostly; ConcurrentMarking a tenth), not per-request work of the main thread.

const tickMs = 10 // USER_HZ is 100 on Linux

export type ProcessCpu = { worker: number; main: number; helpers: number; functions: number }

/**
 * CPU ms a thread has run: schedstat's first field, in ns. Ticks of 10 ms (stat's utime and
 * stime) are too coarse for a thread that spends 0.5 ms on each of 200 requests.
 */
function threadMs(taskPath: string): number {
  return Number(readFileSync(`${taskPath}/schedstat`, 'utf8').split(' ')[0]) / 1e6
}

/** CPU ms a process has used, all its threads: utime + stime from its stat line. */
function cpuMs(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * tickMs
}

/** Processes whose parent is `pid`, and theirs. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)])
    } catch {
      // Gone since the listing.
    }
  }
  const all: number[] = []
  const visit = (p: number) =>
    (children.get(p) ?? []).forEach((child) => {
      all.push(child)
      visit(child)
    })
  visit(pid)
  return all
}

/** CPU ms so far of localbase's database worker thread, main thread, helpers and children. */
export function processCpu(pid: number): ProcessCpu {
  let worker = 0
  let main = 0
  let helpers = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const path = `/proc/${pid}/task/${tid}`
    try {
      const name = readFileSync(`${path}/comm`, 'utf8').trim()
      // The main thread's id is the process's.
      if (name === 'WorkerThread') worker += threadMs(path)
      else if (tid === String(pid)) main += threadMs(path)
      else helpers += threadMs(path)
    } catch {
      // A helper thread that ended since the listing.
    }
  }
  const functions = descendants(pid).reduce((sum, child) => {
    try {
      return sum + cpuMs(`/proc/${child}/stat`)
    } catch {
      return sum
    }
  }, 0)
  return { worker, main, helpers, functions }
}

/** CPU ms used between two readings, per part. */
export const cpuSince = (before: ProcessCpu, after: ProcessCpu): ProcessCpu => ({
  worker: after.worker - before.worker,
  main: after.main - before.main,
  helpers: after.helpers - before.helpers,
  functions: after.functions - before.functions,
})
