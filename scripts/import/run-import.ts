import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import type { SupabaseClient } from '@supabase/supabase-js'
import { resumeOrIngest } from '../../packages/core/src/ingest/resume-or-ingest.ts'
import type { ProcessFile, Timings } from '../../packages/core/src/ingest/types.ts'
import { addToCollection } from './collection.ts'
import type { ImportFile } from './walk.ts'

export interface ImportTotals {
  total: number
  done: number
  ready: number
  pages: number
  chunks: number
  duplicates: string[]
  failures: { name: string; error: string }[]
  /** Summed over files (so with parallel files, more than the elapsed time). */
  timings: Timings
}

export interface ImportOptions {
  workspaceId: string
  files: ImportFile[]
  process: ProcessFile
  /** Files in flight at once: more than the extraction threads, so uploads and inserts overlap. */
  concurrency: number
  /** Called after each file. */
  onFile?: (totals: ImportTotals, file: ImportFile) => void
  /** Stops: files in flight end failed 'cancelled', the rest are not started. */
  signal?: AbortSignal
  /** Every file imported (or found already there) goes into this collection. */
  collectionId?: string
}

/** Ingests the files, `concurrency` at a time, and counts what happened. */
export async function runImport(
  supabase: SupabaseClient,
  { workspaceId, files, process, concurrency, onFile, signal, collectionId }: ImportOptions,
): Promise<ImportTotals> {
  const totals: ImportTotals = {
    total: files.length,
    done: 0,
    ready: 0,
    pages: 0,
    chunks: 0,
    duplicates: [],
    failures: [],
    timings: { uploadMs: 0, extractMs: 0, chunkMs: 0, indexMs: 0 },
  }
  let next = 0
  const lane = async () => {
    while (next < files.length && !signal?.aborted) {
      const file = files[next++]!
      await importOne(supabase, workspaceId, file, { process, signal, collectionId }, totals)
      totals.done++
      onFile?.(totals, file)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane))
  return totals
}

async function importOne(
  supabase: SupabaseClient,
  workspaceId: string,
  file: ImportFile,
  options: { process: ProcessFile; signal?: AbortSignal; collectionId?: string },
  totals: ImportTotals,
) {
  try {
    const bytes = new Uint8Array(await readFile(file.path))
    const input = { workspaceId, bytes, fileName: basename(file.path), mimeType: file.mimeType }
    const result = await resumeOrIngest(supabase, input, options)
    if (options.collectionId && (result.status === 'ready' || result.status === 'duplicate')) {
      await addToCollection(supabase, workspaceId, options.collectionId, result.documentId)
    }
    if (result.status === 'ready') {
      totals.ready++
      totals.pages += result.pageCount
      totals.chunks += result.chunkCount
      for (const key of Object.keys(totals.timings) as (keyof Timings)[]) {
        totals.timings[key] += result.timings[key]
      }
    } else if (result.status === 'duplicate') {
      totals.duplicates.push(file.name)
    } else {
      totals.failures.push({ name: file.name, error: result.error })
    }
  } catch (error) {
    // Reading the file, or the network during the duplicate check.
    totals.failures.push({ name: file.name, error: (error as Error).message })
  }
}
