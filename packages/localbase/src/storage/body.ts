import { Readable } from 'node:stream'
import type { ReadableStream as WebStream } from 'node:stream/web'
import busboy from 'busboy'
import type { Context } from 'hono'
import type { DiskStore, Received } from './disk.ts'
import { errors } from './errors.ts'

/** An upload's bytes on disk (not yet committed) and what the request said about them. */
export type Upload = {
  received: Received
  mimetype: string
  cacheControl: string
  userMetadata: unknown
}

export type UploadRules = { limit: number; allowedMimeTypes: string[] | null }

/** image/* style matching, as storage's validateMimeType. */
export function checkMimeType(mime: string, allowed: string[] | null): void {
  if (!allowed || allowed.length === 0) return
  const [type, subtype] = mime.split('/')
  if (subtype === undefined) throw errors.invalidMimeType(mime)
  const ok = allowed.some((entry) => {
    const [t, s] = entry.split('/')
    return t === type && (s === '*' || s === subtype)
  })
  if (!ok) throw errors.invalidMimeType(mime)
}

/** x-metadata is base64 JSON; unreadable metadata is ignored, as storage does. */
export function parseUserMetadata(value: string | undefined): unknown {
  if (!value) return undefined
  try {
    return JSON.parse(Buffer.from(value, 'base64').toString('utf8'))
  } catch {
    return undefined
  }
}

/** Reads a raw or multipart upload body to a temp file, enforcing size and type as it goes. */
export async function readUpload(
  c: Context,
  store: DiskStore,
  rules: UploadRules,
): Promise<Upload> {
  const type = c.req.header('content-type') ?? ''
  if (type.startsWith('multipart/form-data')) return readMultipart(c, store, rules, type)
  const mimetype = type || 'application/octet-stream'
  checkMimeType(mimetype, rules.allowedMimeTypes)
  const declared = Number(c.req.header('content-length'))
  if (Number.isFinite(declared) && declared > rules.limit) throw errors.entityTooLarge()
  const body = c.req.raw.body ?? new Blob([]).stream()
  return {
    received: await store.receive(body, rules.limit),
    mimetype,
    cacheControl: c.req.header('cache-control') ?? 'no-cache',
    userMetadata: parseUserMetadata(c.req.header('x-metadata')),
  }
}

// storage-js sends cacheControl and metadata fields, then the file under an empty name.
function readMultipart(
  c: Context,
  store: DiskStore,
  rules: UploadRules,
  type: string,
): Promise<Upload> {
  const body = c.req.raw.body
  if (!body) return Promise.reject(errors.noContent())
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {}
    let sawFile = false
    const parser = busboy({ headers: { 'content-type': type }, limits: { files: 1 } })
    parser.on('field', (name, value) => (fields[name] = value))
    parser.on('file', (_name, file, info) => {
      sawFile = true
      const mimetype = fields.contentType || info.mimeType
      try {
        checkMimeType(mimetype, rules.allowedMimeTypes)
      } catch (error) {
        file.resume()
        return reject(error)
      }
      store.receive(file, rules.limit).then(
        (received) => {
          const metadata = fields.metadata ?? fields.userMetadata
          let userMetadata: unknown
          try {
            userMetadata = metadata ? JSON.parse(metadata) : undefined
          } catch {
            userMetadata = undefined
          }
          resolve({
            received,
            mimetype,
            cacheControl: fields.cacheControl ? `max-age=${fields.cacheControl}` : 'no-cache',
            userMetadata,
          })
        },
        (error) => {
          file.resume()
          reject(error)
        },
      )
    })
    parser.on('close', () => {
      if (!sawFile) reject(errors.noContent())
    })
    parser.on('error', () => reject(errors.noContent()))
    const source = Readable.fromWeb(body as WebStream<Uint8Array>)
    source.on('error', (error) => parser.destroy(error))
    source.pipe(parser)
  })
}
