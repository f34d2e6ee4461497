import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config/config.ts'

// INTERRUPTED_AFTER_SECONDS: how long a processing document's heartbeat may be silent.

const workdir = mkdtempSync(join(tmpdir(), 'localbase-interrupted-config-'))
afterAll(() => rmSync(workdir, { recursive: true, force: true }))
const threshold = (env: NodeJS.ProcessEnv) => loadConfig({ workdir, env }).interruptedAfterSeconds

describe('the interrupted-import threshold', () => {
  it('is two minutes by default, eight missed 15 s heartbeats', () => {
    expect(threshold({})).toBe(120)
    expect(threshold({ INTERRUPTED_AFTER_SECONDS: '' })).toBe(120)
  })

  it('takes a whole number of seconds from the environment', () => {
    expect(threshold({ INTERRUPTED_AFTER_SECONDS: '300' })).toBe(300)
  })

  it('refuses anything else, by name', () => {
    for (const value of ['-5', '1.5', 'soon']) {
      expect(() => threshold({ INTERRUPTED_AFTER_SECONDS: value })).toThrow(
        /INTERRUPTED_AFTER_SECONDS: expected a whole number/,
      )
    }
  })
})
