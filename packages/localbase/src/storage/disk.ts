import { createHash, randomUUID } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { copyFile, open, readdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { errors } from './errors.ts'

/** A file written and fsynced under tmp/, not yet visible as any object version. */
export type Received = { tmp: string; size: number; etag: string }

/**
 * Object bytes on disk. Each upload is a new file named by its version id (never by the
 * key), so moving an object is a row update and an upsert never overwrites bytes in place:
 * a version becomes visible only when its row commits, and unreferenced files are garbage.
 */
export class DiskStore {
  readonly root: string
  readonly tmpDir: string
  readonly objectsDir: string
  readonly tusDir: string

  constructor(dataDir: string) {
    this.root = join(dataDir, 'storage')
    this.tmpDir = join(this.root, 'tmp')
    this.objectsDir = join(this.root, 'objects')
    this.tusDir = join(this.root, 'tus')
    for (const dir of [this.tmpDir, this.objectsDir, this.tusDir])
      mkdirSync(dir, { recursive: true })
  }

  pathOf(version: string): string {
    return join(this.objectsDir, version)
  }

  /** Streams a body to a temp file, counting and hashing it; refuses more than `limit` bytes. */
  async receive(body: AsyncIterable<Uint8Array>, limit: number): Promise<Received> {
    const tmp = join(this.tmpDir, randomUUID())
    const file = await open(tmp, 'w')
    const hash = createHash('md5')
    let size = 0
    // Small network chunks are gathered into ~1 MiB writes: one syscall per MiB, not per 16 KiB.
    let pending: Uint8Array[] = []
    let pendingBytes = 0
    const flush = async () => {
      if (pending.length) await file.writev(pending)
      pending = []
      pendingBytes = 0
    }
    try {
      for await (const chunk of body) {
        size += chunk.byteLength
        if (size > limit) throw errors.entityTooLarge()
        hash.update(chunk)
        pending.push(chunk)
        pendingBytes += chunk.byteLength
        if (pendingBytes >= 1 << 20) await flush()
      }
      await flush()
      await file.sync()
      await file.close()
    } catch (error) {
      await file.close().catch(() => {})
      await rm(tmp, { force: true })
      throw error
    }
    return { tmp, size, etag: `"${hash.digest('hex')}"` }
  }

  /** Makes a received file the bytes of `version` (atomic rename within one file system). */
  async commit(received: Received, version: string): Promise<void> {
    await rename(received.tmp, this.pathOf(version))
  }

  /** A second version with the same bytes, for copy. */
  async duplicate(version: string, newVersion: string): Promise<void> {
    const tmp = join(this.tmpDir, randomUUID())
    await copyFile(this.pathOf(version), tmp)
    await rename(tmp, this.pathOf(newVersion))
  }

  async remove(...versions: (string | null | undefined)[]): Promise<void> {
    await Promise.all(
      versions.map((v) => (v ? rm(this.pathOf(v), { force: true }) : Promise.resolve())),
    )
  }

  async discard(received: Received): Promise<void> {
    await rm(received.tmp, { force: true })
  }

  async size(version: string): Promise<number | null> {
    return stat(this.pathOf(version)).then(
      (s) => s.size,
      () => null,
    )
  }

  /**
   * The bytes from `start` to `end` (inclusive) as a web stream read in 1 MiB pieces; the file
   * is opened before returning, so a version removed meanwhile still reads whole.
   */
  async read(version: string, start: number, end: number): Promise<ReadableStream<Uint8Array>> {
    const file = await open(this.pathOf(version), 'r')
    let position = start
    return new ReadableStream({
      async pull(controller) {
        const size = Math.min(1 << 20, end + 1 - position)
        const { bytesRead, buffer } =
          size > 0
            ? await file.read(Buffer.allocUnsafe(size), 0, size, position)
            : { bytesRead: 0, buffer: null }
        if (!bytesRead || !buffer) {
          await file.close()
          return controller.close()
        }
        position += bytesRead
        controller.enqueue(buffer.subarray(0, bytesRead))
      },
      cancel: () => file.close(),
    })
  }

  async versions(): Promise<string[]> {
    return readdir(this.objectsDir)
  }

  async clearTmp(): Promise<void> {
    for (const name of await readdir(this.tmpDir))
      await rm(join(this.tmpDir, name), { force: true })
  }

  /**
   * Drops TUS uploads missing their state or their bytes (a crash between the two writes).
   * Expired ones are the TUS routes' sweep's (tus.ts), which runs at start-up too.
   */
  async clearBrokenTus(): Promise<void> {
    const names = new Set(await readdir(this.tusDir))
    for (const name of names) {
      const [id, ext] = name.split('.')
      const partner = `${id}.${ext === 'json' ? 'part' : 'json'}`
      if (!names.has(partner)) await rm(join(this.tusDir, name), { force: true })
    }
  }
}
