// Storage throughput: upload and download of a 100 MB file through supabase-js and fetch,
// next to a plain disk copy of the same file. Prints a summary and a final JSON line.
// Run: node bench/storage.ts
import { randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { copyFile, open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebStream } from 'node:stream/web'
import { startTestStack } from '../packages/localbase/test/helpers.ts'

const SIZE = 100 * 1024 * 1024
const MB = SIZE / (1024 * 1024)

const dir = mkdtempSync(join(tmpdir(), 'bench-storage-'))
const source = join(dir, 'source.bin')
writeFileSync(source, randomBytes(SIZE))
const stack = await startTestStack('storage-bench')
const files = stack.admin().storage.from('bench')

async function timed(fn: () => Promise<unknown>) {
  const start = performance.now()
  await fn()
  const seconds = (performance.now() - start) / 1000
  return {
    seconds: Math.round(seconds * 1000) / 1000,
    mbPerSecond: Math.round((MB / seconds) * 10) / 10,
  }
}

try {
  const diskCopy = await timed(async () => {
    await copyFile(source, join(dir, 'copy.bin'))
    const handle = await open(join(dir, 'copy.bin'), 'r+')
    await handle.sync()
    await handle.close()
  })
  const upload = await timed(async () => {
    const { error } = await files.upload('big.bin', createReadStream(source), {
      contentType: 'application/octet-stream',
      duplex: 'half',
    })
    if (error) throw error
  })
  const downloadFetch = await timed(async () => {
    const res = await fetch(`${stack.url}/storage/v1/object/bench/big.bin`, {
      headers: { authorization: `Bearer ${stack.config.keys.serviceRoleKey}` },
    })
    if (!res.ok || !res.body) throw new Error(`download failed: ${res.status}`)
    await pipeline(
      Readable.fromWeb(res.body as WebStream),
      createWriteStream(join(dir, 'down.bin')),
    )
  })
  const downloadJs = await timed(async () => {
    const { data, error } = await files.download('big.bin')
    if (error || data.size !== SIZE) throw error ?? new Error(`got ${data.size} bytes`)
  })
  const result = {
    bench: 'storage',
    sizeMB: MB,
    diskCopy,
    uploadSupabaseJs: upload,
    downloadFetchToDisk: downloadFetch,
    downloadSupabaseJsBlob: downloadJs,
  }
  console.log(`disk copy                 ${diskCopy.mbPerSecond} MB/s`)
  console.log(`upload (supabase-js)      ${upload.mbPerSecond} MB/s`)
  console.log(`download (fetch → disk)   ${downloadFetch.mbPerSecond} MB/s`)
  console.log(`download (supabase-js)    ${downloadJs.mbPerSecond} MB/s`)
  console.log(JSON.stringify(result))
} finally {
  await stack.stop()
  rmSync(dir, { recursive: true, force: true })
}
