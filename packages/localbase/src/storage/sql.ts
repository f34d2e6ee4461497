import { randomUUID } from 'node:crypto'
import type { Database, Transaction } from '../db/database.ts'
import { errors } from './errors.ts'
import { guard } from './request.ts'

/** Timestamps as storage's JSON shows them (a JS Date through JSON.stringify). */
export const iso = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** A transaction as the database owner (RLS off), with storage's error mapping. */
export const asOwner = <T>(db: Database, fn: (tx: Transaction) => Promise<T>) =>
  guard(() => db.asService(fn))

export type BucketLimits = {
  id: string
  public: boolean
  file_size_limit: number | null
  allowed_mime_types: string[] | null
}

/** Bucket settings, read as the owner: uploads need the limits whatever the caller may see. */
export async function bucketLimits(db: Database, id: string): Promise<BucketLimits | null> {
  const { rows } = await asOwner(db, (tx) =>
    tx.query<BucketLimits>(
      `select id, public, file_size_limit::float8 as file_size_limit, allowed_mime_types
         from storage.buckets where id = $1`,
      [id],
    ),
  )
  return rows[0] ?? null
}

export type ObjectRow = {
  id: string
  name: string
  bucket_id: string
  version: string | null
  metadata: ObjectMetadata | null
  user_metadata: unknown
  created_at: string
  updated_at: string
}

export type ObjectMetadata = {
  eTag: string
  size: number
  mimetype: string
  cacheControl: string
  lastModified: string
  contentLength: number
  httpStatusCode: number
}

const objectColumns = `id, name, bucket_id, version, metadata, user_metadata,
  ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at`

/** One object as the caller may see it (RLS select). */
export async function findObject(
  tx: Transaction,
  bucket: string,
  name: string,
): Promise<ObjectRow | null> {
  const { rows } = await tx.query<ObjectRow>(
    `select ${objectColumns} from storage.objects where bucket_id = $1 and name = $2`,
    [bucket, name],
  )
  return rows[0] ?? null
}

/** One object of a public bucket, read as the owner (public URLs bypass RLS). */
export async function findPublicObject(
  db: Database,
  bucket: string,
  name: string,
): Promise<ObjectRow | null> {
  const { rows } = await asOwner(db, (tx) =>
    tx.query<ObjectRow>(
      `select ${objectColumns} from storage.objects
        where bucket_id = $1 and name = $2
          and exists (select 1 from storage.buckets b where b.id = $1 and b.public)`,
      [bucket, name],
    ),
  )
  return rows[0] ?? null
}

export type ObjectWrite = {
  bucket: string
  name: string
  owner: string | null
  ownerId: string | null
  version: string
  metadata: ObjectMetadata | null
  userMetadata: unknown
  upsert: boolean
}

/**
 * Writes the row of a new version; returns its id and the version it replaced. As storage
 * does, a plain upload is an INSERT without RETURNING (an INSERT policy is enough), and an
 * upsert is INSERT … ON CONFLICT DO UPDATE … RETURNING (SELECT and UPDATE policies too).
 */
export async function writeObject(
  tx: Transaction,
  w: ObjectWrite,
): Promise<{ id: string; old_version: string | null }> {
  const values = [
    w.bucket,
    w.name,
    w.owner,
    w.ownerId,
    w.version,
    w.metadata === null ? null : JSON.stringify(w.metadata),
    w.userMetadata === undefined ? null : JSON.stringify(w.userMetadata),
  ]
  if (!w.upsert) {
    const id = randomUUID()
    await tx
      .query(
        `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata, user_metadata, id)
         values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [...values, id],
      )
      .catch((error: { code?: string }) => {
        throw error.code === '23505' ? errors.keyExists() : error
      })
    return { id, old_version: null }
  }
  const { rows } = await tx.query<{ id: string; old_version: string | null }>(
    `with old as (select version from storage.objects where bucket_id = $1 and name = $2)
     insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata, user_metadata)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (bucket_id, name) do update set owner = excluded.owner,
       owner_id = excluded.owner_id, version = excluded.version, metadata = excluded.metadata,
       user_metadata = excluded.user_metadata, updated_at = now(), last_accessed_at = now()
     returning id, (select version from old) as old_version`,
    values,
  )
  return rows[0]!
}
