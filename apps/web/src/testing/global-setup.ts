import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    localbaseUrl: string
  }
}

/**
 * One real localbase (the project's own migrations) for all the web tests. It runs in its
 * own Node process: Vite's runner for setup files cannot load it, and PGlite gets a core.
 */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'sourcebook-web-test-'))
  const child = spawn(
    process.execPath,
    [
      fileURLToPath(new URL('./start-localbase.ts', import.meta.url)),
      fileURLToPath(new URL('../../../../', import.meta.url)),
      dataDir,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`localbase exited with ${code}`)))
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line).url))
  })
  project.provide('localbaseUrl', url)
  return async () => {
    child.removeAllListeners('exit')
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
    rmSync(dataDir, { recursive: true, force: true })
  }
}
