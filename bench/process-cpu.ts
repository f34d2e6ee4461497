import { readdirSync, readFileSync } from 'node:fs'

// CPU time of localbase's parts from /proc, for benches that run it as a child process: its
// database worker thread, the rest of the process (main thread: HTTP, gateway, REST; V8's and
// libuv's helpers) and its children (the Edge Functions' Deno processes).

const tickMs = 10 // USER_HZ is 100 on Linux

export type ProcessCpu = { worker: number; main: number; functions: number }

/** CPU ms a thread or process has used: utime + stime from its stat line. */
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

/** CPU ms so far of localbase's database worker thread, the rest of it, and its children. */
export function processCpu(pid: number): ProcessCpu {
  let worker = 0
  let main = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const path = `/proc/${pid}/task/${tid}`
    try {
      const name = readFileSync(`${path}/comm`, 'utf8').trim()
      if (name === 'WorkerThread') worker += cpuMs(`${path}/stat`)
      else main += cpuMs(`${path}/stat`)
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
  return { worker, main, functions }
}

/** CPU ms used between two readings, per part. */
export const cpuSince = (before: ProcessCpu, after: ProcessCpu): ProcessCpu => ({
  worker: after.worker - before.worker,
  main: after.main - before.main,
  functions: after.functions - before.functions,
})
