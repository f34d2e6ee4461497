import { availableParallelism } from 'node:os'
import type { SupabaseClient } from '@supabase/supabase-js'
import { progressLine } from '../../import/report.ts'
import { type ImportTotals, runImport } from '../../import/run-import.ts'
import { type ImportFile, walk } from '../../import/walk.ts'
import { WorkerPool } from '../../import/worker-pool.ts'

/**
 * Imports every supported file of the folders through the importer's pipeline (worker-thread
 * extraction, upload, chunks, ready). Files already in the workspace are found as duplicates
 * by their hash and skipped, so importing into a kept data dir again only reads the files.
 */
export async function importLibrary(
  supabase: SupabaseClient,
  workspaceId: string,
  folders: string[],
  log: (line: string) => void,
): Promise<{ totals: ImportTotals; seconds: number }> {
  const files: ImportFile[] = []
  for (const folder of folders) files.push(...(await walk(folder)).files)
  // Questions name files by their base name, which is the document's file_name.
  const names = files.map((f) => f.path.split(/[/\\]/).pop()!)
  const repeated = names.filter((name, i) => names.indexOf(name) !== i)
  if (repeated.length > 0) throw new Error(`file names repeat across folders: ${repeated}`)

  const threads = Math.max(1, Math.min(availableParallelism(), files.length))
  const pool = new WorkerPool(threads)
  const started = performance.now()
  try {
    const totals = await runImport(supabase, {
      workspaceId,
      files,
      process: pool.process,
      concurrency: threads * 2,
      onFile: (totals, file) => log(progressLine(totals, file.name)),
    })
    return { totals, seconds: (performance.now() - started) / 1000 }
  } finally {
    await pool.close()
  }
}

/** The workspace's ready documents: id by file name (the imported file's base name). */
export async function readyDocuments(
  supabase: SupabaseClient,
  workspaceId: string,
): Promise<Map<string, string>> {
  const { data, error } = await supabase
    .from('documents')
    .select('id, file_name')
    .eq('workspace_id', workspaceId)
    .eq('status', 'ready')
  if (error) throw new Error(`reading the documents: ${error.message}`)
  return new Map((data as { id: string; file_name: string }[]).map((d) => [d.file_name, d.id]))
}
