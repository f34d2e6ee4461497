import { createWriteStream } from 'node:fs'
import { rename, rm, stat } from 'node:fs/promises'
import { Readable } from 'node:stream'
import type { ReadableStream } from 'node:stream/web'
import { pipeline } from 'node:stream/promises'

/**
 * Asks a running localbase for a backup (`POST /admin/v1/backup` with the service-role or
 * secret key) and writes it to `out`, whole or not at all. Returns its size in bytes.
 */
export async function downloadBackup(url: string, key: string, out: string): Promise<number> {
  const res = await fetch(`${url.replace(/\/$/, '')}/admin/v1/backup`, {
    method: 'POST',
    headers: { apikey: key, authorization: `Bearer ${key}` },
  })
  if (!res.ok || !res.body) {
    const body = await res.text().catch(() => '')
    throw new Error(`backup refused: ${res.status} ${body}`)
  }
  const partial = `${out}.partial`
  try {
    await pipeline(Readable.fromWeb(res.body as ReadableStream), createWriteStream(partial))
    await rename(partial, out)
  } catch (error) {
    await rm(partial, { force: true })
    throw error
  }
  return (await stat(out)).size
}
