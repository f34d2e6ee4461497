import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'

/**
 * Which import pipeline filled a kept library. A kept data dir skips the files it holds, so
 * its passages stay as the pipeline of its first run extracted and chunked them: after a
 * change to extraction, chunking or the signals, a reused library and a fresh one give
 * different numbers for the same code (32 of the 39 development filings' passages differed
 * between main and a branch a few merges behind it). The stamp is the hash of every source
 * file of that pipeline, kept beside the database.
 */
export type PipelineStamp = Record<string, string>

// What turns a file into stored passages and document signals.
const pipelineFolders = [
  'packages/core/src/extract',
  'packages/core/src/chunk',
  'packages/core/src/ingest',
  'packages/core/src/signals',
  'scripts/import',
]

/** The pipeline's source files under `root` (tests aside), each with its SHA-256. */
function pipelineStamp(root: string): PipelineStamp {
  const paths = pipelineFolders.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
      .map((e) => relative(root, join(e.parentPath, e.name))),
  )
  return Object.fromEntries(
    paths.sort().map((path) => [
      path,
      createHash('sha256')
        .update(readFileSync(join(root, path)))
        .digest('hex'),
    ]),
  )
}

/** The files added, removed or changed from one stamp to the other, sorted. */
export function changedFiles(kept: PipelineStamp, now: PipelineStamp): string[] {
  const paths = new Set([...Object.keys(kept), ...Object.keys(now)])
  return [...paths].filter((path) => kept[path] !== now[path]).sort()
}

/**
 * Stamps a new data dir with the pipeline under `root`; a reused one must bear that stamp, or
 * this throws, naming the files changed since its import.
 */
export function stampPipeline(dataDir: string, root: string, reused: boolean): void {
  const now = pipelineStamp(root)
  const file = join(dataDir, 'sourcebook-library-pipeline.json')
  if (!reused) {
    writeFileSync(file, `${JSON.stringify(now, null, 1)}\n`)
    return
  }
  const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as PipelineStamp) : null
  const changed = kept ? changedFiles(kept, now) : []
  if (kept && changed.length === 0) return
  const by = kept
    ? `another import pipeline (changed: ${changed.join(', ')})`
    : 'an import pipeline of unknown version (no stamp)'
  throw new Error(
    `the library in ${dataDir} was imported by ${by}: its passages are not what this code ` +
      'makes of the files; import it afresh into a new --data-dir',
  )
}
