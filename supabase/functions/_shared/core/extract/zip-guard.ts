// Generated from packages/core/src/extract/zip-guard.ts by `npm run sync:core`: edit that file, not this one.
import { ExtractError } from './errors.ts'

export interface ZipEntry {
  name: string
  compressedSize: number
  uncompressedSize: number
}

const EOCD = 0x06054b50
const CENTRAL_HEADER = 0x02014b50
const ZIP64_SENTINEL = 0xffffffff

/**
 * Lists a ZIP's entries from its central directory alone (nothing is inflated), so a zip bomb can
 * be refused from the sizes it declares before any decompressor sees it.
 */
export function readCentralDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const eocd = findEocd(view)
  const count = view.getUint16(eocd + 10, true)
  let offset = view.getUint32(eocd + 16, true)
  const entries: ZipEntry[] = []
  const decoder = new TextDecoder()
  for (let i = 0; i < count; i++) {
    if (offset + 46 > view.byteLength || view.getUint32(offset, true) !== CENTRAL_HEADER) {
      throw corrupt()
    }
    const nameLength = view.getUint16(offset + 28, true)
    const extraLength = view.getUint16(offset + 30, true)
    const commentLength = view.getUint16(offset + 32, true)
    if (offset + 46 + nameLength > view.byteLength) throw corrupt()
    entries.push({
      name: decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength)),
      compressedSize: view.getUint32(offset + 20, true),
      uncompressedSize: view.getUint32(offset + 24, true),
    })
    offset += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

/** Refuses archives that would inflate past `maxTotal` bytes, or declare ZIP64 sizes (4 GB+). */
export function assertNotZipBomb(entries: ZipEntry[], maxTotal: number): void {
  let total = 0
  for (const entry of entries) {
    if (entry.uncompressedSize === ZIP64_SENTINEL || entry.compressedSize === ZIP64_SENTINEL) {
      throw bomb(maxTotal)
    }
    total += entry.uncompressedSize
  }
  if (total > maxTotal) throw bomb(maxTotal)
}

function findEocd(view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65,535 bytes, at the very end.
  const lowest = Math.max(0, view.byteLength - 22 - 0xffff)
  for (let i = view.byteLength - 22; i >= lowest; i--) {
    if (view.getUint32(i, true) === EOCD) return i
  }
  throw corrupt()
}

function corrupt(): ExtractError {
  return new ExtractError('corrupt', 'This file is damaged: its ZIP directory cannot be read.')
}

function bomb(maxTotal: number): ExtractError {
  const mb = Math.round(maxTotal / 2 ** 20)
  return new ExtractError(
    'zip_bomb',
    `This document would expand to more than ${mb} MB when unpacked, so it was refused.`,
  )
}
