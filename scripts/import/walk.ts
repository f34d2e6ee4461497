import { readdir, stat } from 'node:fs/promises'
import { extname, join, relative } from 'node:path'
import { supportedMimeType } from '../../packages/core/src/ingest/file-types.ts'

export interface ImportFile {
  path: string
  /** Relative to the imported folder, for messages. */
  name: string
  size: number
  mimeType: string
}

/**
 * The folder's files, recursively (hidden files and folders skipped), split into those we can
 * import (largest first, so the slowest start early and the pool drains evenly) and the
 * names of the others.
 */
export async function walk(folder: string): Promise<{ files: ImportFile[]; skipped: string[] }> {
  const files: ImportFile[] = []
  const skipped: string[] = []
  const entries = await readdir(folder, { recursive: true, withFileTypes: true })
  for (const entry of entries) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    const name = relative(folder, path)
    if (name.split(/[/\\]/).some((part) => part.startsWith('.'))) continue
    const mimeType = supportedMimeType(extname(entry.name).slice(1).toLowerCase())
    if (!mimeType) skipped.push(name)
    else files.push({ path, name, size: (await stat(path)).size, mimeType })
  }
  files.sort((a, b) => b.size - a.size || a.name.localeCompare(b.name))
  return { files, skipped: skipped.sort() }
}
