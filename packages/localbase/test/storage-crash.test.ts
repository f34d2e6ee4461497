import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@supabase/supabase-js'
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_SERVICE_ROLE_KEY } from '../src/config/keys.ts'
import { fixtures } from './helpers.ts'

const cli = new URL('../src/cli.ts', import.meta.url).pathname
const key = DEFAULT_SERVICE_ROLE_KEY
const headers = { authorization: `Bearer ${key}`, apikey: key }

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

async function start(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort()
  const child = spawn(
    process.execPath,
    [
      cli,
      'start',
      '--workdir',
      join(fixtures, 'storage'),
      '--port',
      String(port),
      '--data-dir',
      dataDir,
    ],
    { stdio: 'ignore', env: { ...process.env, PORT: '', HOST: '', DATA_DIR: '' } },
  )
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return { child, url }
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill('SIGKILL')
  throw new Error('localbase did not start')
}

async function waitFor(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 50))
  expect(check()).toBe(true)
}

describe('storage crash safety', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'localbase-crash-'))
  const storageDir = join(dataDir, 'storage')
  let child: ChildProcess | null = null
  afterAll(() => {
    child?.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('leaves neither orphan rows nor orphan files after SIGKILL mid-upload', async () => {
    const first = await start(dataDir)
    child = first.child
    const storage = createClient(first.url, key, { auth: { persistSession: false } }).storage
    const files = storage.from('private')
    const done = new Map<string, Buffer>()
    for (let i = 0; i < 3; i++) {
      const bytes = randomBytes(200_000 + i)
      expect((await files.upload(`done-${i}.bin`, bytes)).error).toBeNull()
      done.set(`done-${i}.bin`, bytes)
    }
    // An upsert that replaced a version, and a row whose file vanished while running.
    expect(
      (await files.upload('done-0.bin', done.get('done-0.bin')!, { upsert: true })).error,
    ).toBeNull()
    await files.upload('lost.bin', 'soon without bytes')
    const lost = (await files.info('lost.bin')).data!
    unlinkSync(join(storageDir, 'objects', lost.version!))

    // A TUS upload half sent: it must survive the crash and stay resumable.
    const tusCreate = await fetch(`${first.url}/storage/v1/upload/resumable`, {
      method: 'POST',
      headers: {
        ...headers,
        'tus-resumable': '1.0.0',
        'upload-length': '10',
        'upload-metadata': `bucketName ${btoa('private')},objectName ${btoa('tus.txt')}`,
      },
    })
    const tusUrl = tusCreate.headers.get('location')!.replace(first.url, '')
    await fetch(`${first.url}${tusUrl}`, {
      method: 'PATCH',
      headers: {
        ...headers,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: '01234',
    })

    // Three uploads stalled mid-body when the process dies.
    const stalled = [0, 1, 2].map((i) =>
      fetch(`${first.url}/storage/v1/object/private/stalled-${i}.bin`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/octet-stream' },
        body: new ReadableStream<Uint8Array>({
          start: (controller) => controller.enqueue(new Uint8Array(512 * 1024)),
        }),
        duplex: 'half',
      } as RequestInit).catch(() => null),
    )
    await waitFor(() => readdirSync(join(storageDir, 'tmp')).length === 3)
    first.child.kill('SIGKILL')
    await new Promise((r) => first.child.once('exit', r))
    await Promise.all(stalled)

    // Debris a crash can leave between the rename and the commit, a TUS upload that lost its
    // state, and one abandoned for more than a day.
    writeFileSync(join(storageDir, 'objects', randomUUID()), 'no row points here')
    const tusDir = join(storageDir, 'tus')
    const live = readdirSync(tusDir).sort()
    writeFileSync(join(tusDir, `${randomUUID()}.part`), 'orphan')
    const stale = randomUUID()
    writeFileSync(join(tusDir, `${stale}.json`), '{}')
    writeFileSync(join(tusDir, `${stale}.part`), 'old')
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000)
    utimesSync(join(tusDir, `${stale}.part`), twoDaysAgo, twoDaysAgo)
    expect(readdirSync(join(storageDir, 'tmp'))).toHaveLength(3)

    const second = await start(dataDir)
    child = second.child
    const again = createClient(second.url, key, { auth: { persistSession: false } }).storage
    const listed = (await again.from('private').list()).data!
    expect(listed.map((o) => o.name).sort()).toEqual(['done-0.bin', 'done-1.bin', 'done-2.bin'])
    for (const [name, bytes] of done) {
      const down = await again.from('private').download(name)
      expect(Buffer.from(await down.data!.arrayBuffer()).equals(bytes)).toBe(true)
    }
    const versions = await Promise.all(
      listed.map(async (o) => (await again.from('private').info(o.name)).data!.version),
    )
    expect(readdirSync(join(storageDir, 'objects')).sort()).toEqual(versions.sort())
    expect(readdirSync(join(storageDir, 'tmp'))).toEqual([])
    expect(readdirSync(tusDir).sort()).toEqual(live)

    const head = await fetch(`${second.url}${tusUrl}`, { method: 'HEAD', headers })
    expect(head.headers.get('upload-offset')).toBe('5')
    const finish = await fetch(`${second.url}${tusUrl}`, {
      method: 'PATCH',
      headers: {
        ...headers,
        'tus-resumable': '1.0.0',
        'upload-offset': '5',
        'content-type': 'application/offset+octet-stream',
      },
      body: '56789',
    })
    expect(finish.status).toBe(204)
    expect(await (await again.from('private').download('tus.txt')).data!.text()).toBe('0123456789')

    second.child.kill('SIGTERM')
    await new Promise((r) => second.child.once('exit', r))
    child = null
  }, 120_000)
})
