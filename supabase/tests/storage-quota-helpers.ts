import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Stack } from './stack.ts'

/** Sets a workspace's quota as the operator does (SQL as the database owner). */
export async function setQuota(stack: Stack, workspaceId: string, bytes: number): Promise<void> {
  await stack.db.pg.query('update public.workspaces set storage_quota_bytes = $2 where id = $1', [
    workspaceId,
    bytes,
  ])
}

/**
 * What Storage holds, rows and files: the documents bucket's objects under `prefix` with their
 * sizes, and every file in localbase's object, temp and TUS folders. A refused upload must
 * leave both exactly as they were.
 */
export async function storageState(stack: Stack, prefix: string) {
  const { rows } = await stack.db.pg.query<{ name: string; size: string | null }>(
    `select name, metadata->>'size' as size from storage.objects
     where bucket_id = 'documents' and name like $1 order by name`,
    [`${prefix}%`],
  )
  const root = join(stack.config.dataDir, 'storage')
  const files = ['objects', 'tmp', 'tus'].flatMap((dir) =>
    readdirSync(join(root, dir)).map((name) => `${dir}/${name}`),
  )
  return { objects: rows, files: files.sort() }
}

/** Bytes of `size` that differ from upload to upload (so none is a duplicate of another). */
export function bytesOf(size: number, seed = Math.random()): Uint8Array<ArrayBuffer> {
  return new Uint8Array(size).map((_, i) => (i * 31 + Math.floor(seed * 251)) & 0xff)
}
