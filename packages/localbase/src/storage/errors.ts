import type { CredentialError } from '../gateway/caller.ts'

// The error body of supabase/storage (src/internal/errors/codes.ts, src/http/error-handler.ts):
// {statusCode: "<status as string>", code, error, message}, sent with HTTP 400 for every
// renderable error, whatever its statusCode, unless it carries its own HTTP status.
export class StorageError extends Error {
  readonly status: string
  readonly code: string
  readonly error: string
  readonly http: number
  constructor(status: number, code: string, message: string, error = code, http = 400) {
    super(message)
    this.status = String(status)
    this.code = code
    this.error = error
    this.http = http
  }

  body() {
    return { statusCode: this.status, code: this.code, error: this.error, message: this.message }
  }
}

export const errors = {
  noSuchBucket: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageError(404, 'NoSuchKey', 'Object not found', 'not_found'),
  noSuchUpload: () => new StorageError(404, 'NoSuchUpload', 'Upload not found'),
  bucketExists: () =>
    new StorageError(409, 'BucketAlreadyExists', 'The resource already exists', 'Duplicate'),
  keyExists: () =>
    new StorageError(409, 'KeyAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketNotEmpty: () =>
    new StorageError(409, 'ResourceNotEmpty', 'The bucket you tried to delete is not empty'),
  accessDenied: (message = 'new row violates row-level security policy') =>
    new StorageError(403, 'AccessDenied', message, 'Unauthorized'),
  invalidBucketName: () =>
    new StorageError(400, 'InvalidBucketName', 'Bucket name invalid', 'Invalid Input'),
  invalidKey: (key: string) => new StorageError(400, 'InvalidKey', `Invalid key: ${key}`),
  invalidRequest: (message: string) => new StorageError(400, 'InvalidRequest', message),
  missingParameter: (name: string) =>
    new StorageError(400, 'MissingParameter', `Missing Required Parameter ${name}`),
  invalidParameter: (name: string, message = `Invalid Parameter ${name}`) =>
    new StorageError(400, 'InvalidParameter', message),
  invalidJwt: (message: string) => new StorageError(400, 'InvalidJWT', message),
  invalidSignature: (message = 'Invalid signature') =>
    new StorageError(400, 'InvalidSignature', message),
  invalidMimeType: (mime: string) =>
    new StorageError(
      415,
      'InvalidMimeType',
      `mime type ${mime} is not supported`,
      'invalid_mime_type',
    ),
  entityTooLarge: () =>
    new StorageError(
      413,
      'EntityTooLarge',
      'The object exceeded the maximum allowed size',
      'Payload too large',
    ),
  invalidRange: () =>
    new StorageError(400, 'InvalidRange', 'invalid range provided', 'invalid_range'),
  noContent: () => new StorageError(400, 'InvalidRequest', 'No content provided'),
  tus: (message: string, http: number) =>
    new StorageError(http, 'TusError', message, 'TusError', http),
}

/** The gateway's refusal, as storage's jwt plugin renders it (AccessDenied with the reason). */
export function credentialError(error: CredentialError): StorageError {
  if (error.kind === 'expired_jwt') return errors.accessDenied('jwt expired')
  // jose's wording for a token that is not three dot-separated parts.
  if (error.message.startsWith('Expected 3 parts'))
    return errors.accessDenied('Invalid Compact JWS')
  return errors.accessDenied(error.message)
}

/** Maps a Postgres error to storage's DBError (src/storage/database/errors.ts). */
export function fromDatabase(error: unknown): StorageError | null {
  const code = (error as { code?: unknown } | null)?.code
  const message = (error as Error).message ?? ''
  if (code === '42501')
    return errors.accessDenied(
      message.includes('row-level security')
        ? 'new row violates row-level security policy'
        : message,
    )
  if (code === '23505')
    return new StorageError(
      409,
      'ResourceAlreadyExists',
      'The resource already exists',
      'Duplicate',
    )
  // Bad text (a NUL byte), bad casts, values out of range: the request's fault, never a 500.
  if (typeof code === 'string' && code.startsWith('22'))
    return errors.invalidParameter('value', message)
  return null
}
