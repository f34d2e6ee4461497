// What deleting a long document costs when its words are its own (a log, a parts list: the
// end-to-end suite's 140,000 numbered lines), after upkeep has analyzed the statistics as it
// does after bulk work. Each of its terms leaves the workspace with it. Prints the time of the
// import's chunk inserts, of the delete, and their ratio; a delete that took the statistics'
// terms out by a join could run for hours (20260101004400_chunk_stats_delete_by_key.sql).
// Run: node bench/delete.ts [--lines 140000]   (last line: JSON)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createClient } from '@supabase/supabase-js'
import { chunkDocument } from '../packages/core/src/chunk/chunk-document.ts'
import { extractDocument } from '../packages/core/src/extract/extract-document.ts'
import {
  DEFAULT_PUBLISHABLE_KEY,
  DEFAULT_SERVICE_ROLE_KEY,
} from '../packages/localbase/src/config/keys.ts'
import { startLocalbase } from '../packages/localbase/src/server.ts'

const { values } = parseArgs({ options: { lines: { type: 'string', default: '140000' } } })
const root = fileURLToPath(new URL('..', import.meta.url))
const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }
const dataDir = mkdtempSync(join(tmpdir(), 'sourcebook-bench-delete-'))
const lb = await startLocalbase({
  workdir: root,
  port: 0,
  dataDir,
  env: { ...process.env, PORT: '', HOST: '', DATA_DIR: '' },
})

try {
  const email = `bench.${Date.now()}@example.test`
  const password = 'bench-password-1'
  const admin = createClient(lb.url, DEFAULT_SERVICE_ROLE_KEY, { auth: noSession })
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true })
  if (created.error) throw created.error
  const supabase = createClient(lb.url, DEFAULT_PUBLISHABLE_KEY, { auth: noSession })
  const signIn = await supabase.auth.signInWithPassword({ email, password })
  if (signIn.error) throw signIn.error
  const workspace = await supabase.from('workspaces').insert({ name: 'Logs' }).select('id').single()
  if (workspace.error) throw workspace.error
  const workspaceId = workspace.data.id as string

  /** A ready document of `text`, chunked as the importer chunks it, 500 chunks per insert. */
  async function addDocument(title: string, text: string) {
    const chunks = chunkDocument(
      await extractDocument(
        { bytes: new TextEncoder().encode(text), fileName: `${title}.txt`, mimeType: 'text/plain' },
        { maxBytes: Infinity },
      ),
    )
    const doc = await supabase
      .from('documents')
      .insert({ workspace_id: workspaceId, title, status: 'ready', stage: 'ready' })
      .select('id')
      .single()
    if (doc.error) throw doc.error
    const started = performance.now()
    for (let i = 0; i < chunks.length; i += 500) {
      const rows = chunks.slice(i, i + 500).map((c) => ({
        document_id: doc.data.id,
        workspace_id: workspaceId,
        ordinal: c.ordinal,
        content: c.content,
        page_start: c.pageStart,
        page_end: c.pageEnd,
        char_start: c.charStart,
        char_end: c.charEnd,
        token_count: c.tokenCount,
      }))
      const { error } = await supabase.from('chunks').insert(rows)
      if (error) throw error
    }
    return { id: doc.data.id as string, chunks: chunks.length, ms: performance.now() - started }
  }

  // Some ordinary prose first, and upkeep's analyze of it, as a library would have.
  const prose = Array.from(
    { length: 2_000 },
    (_, i) => `Paragraph ${i % 50}: the swans and ducks of the river meet at the weir.\n`,
  ).join('')
  await addDocument('River notes', prose)
  await lb.upkeep.run({ all: true })
  const lines = Number(values.lines)
  const log = Array.from(
    { length: lines },
    (_, i) => `Lap ${i}: the duck swims ${i % 97} lengths of the lake.\n`,
  ).join('')
  const added = await addDocument('Laps', log)
  const started = performance.now()
  const deleted = await supabase.from('documents').delete().eq('id', added.id)
  if (deleted.error) throw deleted.error
  const deleteMs = performance.now() - started
  console.log(
    `${lines} lines, ${added.chunks} chunks: inserted in ${(added.ms / 1000).toFixed(1)} s, ` +
      `deleted in ${(deleteMs / 1000).toFixed(1)} s (${(deleteMs / added.ms).toFixed(2)}× the insert)`,
  )
  console.log(
    JSON.stringify({
      bench: 'delete',
      lines,
      chunks: added.chunks,
      insertMs: Math.round(added.ms),
      deleteMs: Math.round(deleteMs),
      deleteOverInsert: Number((deleteMs / added.ms).toFixed(3)),
    }),
  )
} finally {
  await lb.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
