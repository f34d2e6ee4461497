import { randomUUID } from 'node:crypto'
import type { Transaction } from '../db/database.ts'
import type { Upload, UploadRules } from './body.ts'
import { errors } from './errors.ts'
import type { Env, Requester } from './request.ts'
import { asOwner, bucketLimits, type ObjectWrite, writeObject } from './sql.ts'

export type Target = {
  bucket: string
  name: string
  upsert: boolean
  /** storage.operation for policies; storage's route operation names. */
  operation?: string
}

/**
 * Who uploads: a caller under RLS, or for a signed upload URL just the owner its token names
 * (the token proved the right to write; storage then writes as the superuser).
 */
export type Writer = Requester | { owner: string | null; ownerId: string | null; as?: undefined }

const rollback = Symbol('rollback')

type Row = Omit<ObjectWrite, 'version' | 'metadata' | 'userMetadata'>
export type Run = <T>(fn: (tx: Transaction) => Promise<T>) => Promise<T>
export type Prepared = { rules: UploadRules; run: Run; row: Row }

/**
 * Everything before the bytes: the bucket and its rules, then the RLS check with a test row
 * rolled back (storage's canUpload), so a refused upload never reads its body.
 */
export async function prepareUpload(env: Env, writer: Writer, target: Target): Promise<Prepared> {
  const bucket = await bucketLimits(env.sc.db, target.bucket)
  if (!bucket) throw errors.noSuchBucket()
  const global = env.sc.config.storage.fileSizeLimit
  const limit = Math.min(global, bucket.file_size_limit ?? global)
  const run: Run = (fn) =>
    writer.as ? writer.as(target.operation ?? 'storage.object.upload', fn) : asOwner(env.sc.db, fn)
  const row: Row = {
    bucket: target.bucket,
    name: target.name,
    owner: writer.owner,
    ownerId: writer.ownerId,
    upsert: target.upsert,
  }
  await run(async (tx) => {
    await writeObject(tx, { ...row, version: randomUUID(), metadata: null, userMetadata: null })
    throw rollback
  }).catch((error) => {
    if (error !== rollback) throw error
  })
  return { rules: { limit, allowedMimeTypes: bucket.allowed_mime_types }, run, row }
}

/** The whole upload; a failure at any step leaves no row without file, no file without row. */
export async function storeUpload(
  env: Env,
  writer: Writer,
  target: Target,
  read: (rules: UploadRules) => Promise<Upload>,
): Promise<{ id: string; key: string }> {
  const prepared = await prepareUpload(env, writer, target)
  return commitUpload(env, prepared, await read(prepared.rules))
}

/** Makes received bytes an object version and writes its row; shared with TUS. */
export async function commitUpload(
  env: Env,
  { run, row }: Prepared,
  upload: Upload,
): Promise<{ id: string; key: string }> {
  const version = randomUUID()
  const { size, etag } = upload.received
  await env.store.commit(upload.received, version)
  let written: { id: string; old_version: string | null }
  try {
    written = await run((tx) =>
      writeObject(tx, {
        ...row,
        version,
        userMetadata: upload.userMetadata,
        metadata: {
          eTag: etag,
          size,
          mimetype: upload.mimetype,
          cacheControl: upload.cacheControl,
          lastModified: new Date().toISOString(),
          contentLength: size,
          httpStatusCode: 200,
        },
      }),
    )
  } catch (error) {
    await env.store.remove(version)
    throw error
  }
  await env.store.remove(written.old_version)
  return { id: written.id, key: `${row.bucket}/${row.name}` }
}
