// Generated from packages/core/src/hash.ts by `npm run sync:core`: edit that file, not this one.
/** Lower-case hex SHA-256 of the bytes (the documents table's duplicate-detection key). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}
