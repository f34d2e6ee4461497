import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

// Reads the V8 CPU profiles `node --cpu-prof` writes (one per thread) and ranks functions by
// self time inside a window of time, so a bench can say where one phase's CPU went without the
// setup (an import) that ran before it. Profile timestamps are CLOCK_MONOTONIC microseconds,
// the clock process.hrtime reads, so a bench in another process can mark its windows with
// monotonicMicros().

type Frame = { functionName: string; url: string; lineNumber: number }
type ProfileNode = { id: number; callFrame: Frame }
type CpuProfile = {
  nodes: ProfileNode[]
  startTime: number
  samples: number[]
  timeDeltas: number[]
}

export type Window = { from: number; to: number }
export type SelfTime = { name: string; ms: number }
export type ThreadProfile = { file: string; sampledMs: number; top: SelfTime[] }

export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n)

/** Where a frame is, short: the file under the repository (or package), and its line. */
function label({ functionName, url, lineNumber }: Frame): string {
  const file = url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '')
  const where = file
    ? ` ${file.replace(/^.*\/(packages|supabase|bench)\//, '$1/')}:${lineNumber + 1}`
    : ''
  return `${functionName || '(anonymous)'}${where}`
}

/** The `top` functions by self time within `window` of one profile, and all time sampled there. */
function rank(profile: CpuProfile, window: Window, top: number) {
  const byNode = new Map(profile.nodes.map((node) => [node.id, label(node.callFrame)]))
  const self = new Map<string, number>()
  let at = profile.startTime
  let sampled = 0
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0
    at += delta
    if (at < window.from || at > window.to) continue
    const name = byNode.get(profile.samples[i]!) ?? '?'
    // Each sample stands for the interval since the one before it.
    self.set(name, (self.get(name) ?? 0) + delta)
    sampled += delta
  }
  const ranked = [...self]
    .filter(([name]) => name !== '(idle)' && !name.startsWith('(program)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({ name, ms: Number((us / 1000).toFixed(1)) }))
  const idle = (self.get('(idle)') ?? 0) / 1000
  return { sampledMs: Number((sampled / 1000 - idle).toFixed(1)), top: ranked }
}

/** Every profile in `dir`, ranked within `window`; threads with nothing sampled there left out. */
export function profileTop(dir: string, window: Window, top = 12): ThreadProfile[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.cpuprofile'))
    .map((file) => {
      const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile
      return { file, ...rank(profile, window, top) }
    })
    .filter((thread) => thread.sampledMs > 0)
}
