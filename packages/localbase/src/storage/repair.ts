import type { ServiceContext } from '../context.ts'
import type { DiskStore } from './disk.ts'

/**
 * Start-up reconciliation after a crash: half-written temp files and broken TUS uploads go
 * (whole ones stay, to be resumed until they expire: tus.ts), files no row points at
 * go (an upload whose row never committed, or a version an upsert replaced), and rows whose
 * bytes are missing go. Rows without a version (made with SQL, not by an upload) are kept.
 */
export async function repair(sc: ServiceContext, store: DiskStore): Promise<void> {
  await store.clearTmp()
  await store.clearBrokenTus()
  const onDisk = new Set(await store.versions())
  const referenced = await sc.db.asService(async (tx) => {
    const { rows } = await tx.query<{ version: string }>(
      `select version from storage.objects where version is not null`,
    )
    const missing = rows.filter((r) => !onDisk.has(r.version)).map((r) => r.version)
    if (missing.length)
      await tx.query(`delete from storage.objects where version = any($1::text[])`, [missing])
    return new Set(rows.map((r) => r.version))
  })
  await store.remove(...[...onDisk].filter((v) => !referenced.has(v)))
}

/** Buckets declared in config.toml [storage.buckets.*] exist with their declared settings. */
export async function seedBuckets(sc: ServiceContext): Promise<void> {
  const buckets = Object.entries(sc.config.storage.buckets)
  if (!buckets.length) return
  await sc.db.asService(async (tx) => {
    for (const [id, b] of buckets) {
      await tx.query(
        `insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
         values ($1, $1, $2, $3, $4)
         on conflict (id) do update set public = excluded.public,
           file_size_limit = excluded.file_size_limit,
           allowed_mime_types = excluded.allowed_mime_types, updated_at = now()`,
        [id, b.public, b.fileSizeLimit, b.allowedMimeTypes],
      )
    }
  })
}
