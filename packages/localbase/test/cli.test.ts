import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyFixture } from './helpers.ts'

const cli = new URL('../src/cli.ts', import.meta.url).pathname
const run = promisify(execFile)

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

function start(args: string[]): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, [cli, 'start', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk
      if (output.includes('localbase is running')) resolve()
    })
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)))
  })
  return { child, ready }
}

describe('the localbase command', () => {
  const workdir = copyFixture('basic')
  const dataDir = mkdtempSync(join(tmpdir(), 'localbase-cli-'))
  let port: number
  let dbPort: number
  let proc: ReturnType<typeof start>

  beforeAll(async () => {
    port = await freePort()
    dbPort = await freePort()
    proc = start([
      '--workdir',
      workdir,
      '--port',
      String(port),
      '--data-dir',
      dataDir,
      '--db-port',
      String(dbPort),
    ])
    await proc.ready
  })
  afterAll(() => {
    proc.child.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(workdir, { recursive: true, force: true })
  })

  it('serves the API and a Postgres wire endpoint that psql can use', async () => {
    const health = await fetch(`http://127.0.0.1:${port}/health`)
    expect(health.status).toBe(200)
    const { stdout } = await run('psql', [
      `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres`,
      '-qAt',
      '-c',
      `insert into personal.diary values (7, 'from psql') returning entry`,
    ])
    expect(stdout.trim()).toBe('from psql')
    // REST reads share PGlite's one session with the socket client and still answer.
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/rest/v1/diary?id=eq.7&select=entry`, {
        headers: { 'accept-profile': 'personal' },
      })
      expect(await res.json()).toEqual([{ entry: 'from psql' }])
    }
  })

  it('closes the database cleanly on SIGTERM, and a restart keeps every row', async () => {
    const exited = new Promise<number | null>((resolve) => proc.child.once('exit', resolve))
    proc.child.kill('SIGTERM')
    expect(await exited).toBe(0)

    proc = start(['--workdir', workdir, '--port', String(port), '--data-dir', dataDir])
    await proc.ready
    const res = await fetch(`http://127.0.0.1:${port}/rest/v1/diary?id=eq.7&select=entry`, {
      headers: { 'accept-profile': 'personal' },
    })
    expect(await res.json()).toEqual([{ entry: 'from psql' }])
  })
})
