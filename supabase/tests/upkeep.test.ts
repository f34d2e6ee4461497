import { describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { startIngestWorld, textFile } from './ingest-helpers.ts'

const { stack, db, workspaceId, editor } = await startIngestWorld()

type TableStat = { dead: number; vacuums: number; analyzes: number }

async function tableStat(table: string): Promise<TableStat> {
  await db.rows('select pg_stat_force_next_flush()')
  const [row] = await db.rows<TableStat>(
    `select n_dead_tup::int as dead, vacuum_count::int as vacuums, analyze_count::int as analyzes
     from pg_stat_user_tables where format('%I.%I', schemaname, relname) = $1`,
    [table],
  )
  return row!
}

/** Imports a document of `n` distinct paragraphs (one chunk or more each). */
async function importDocument(n: number): Promise<string> {
  const tag = crypto.randomUUID()
  const words = Array.from({ length: n }, (_, i) => `Paragraph ${i} of ${tag} about the tide`)
  const result = await ingestFile(editor(), {
    workspaceId,
    bytes: textFile(words.join('\n\n'), 40),
    fileName: `harbour-${tag}.txt`,
  })
  if (result.status !== 'ready') throw new Error(`import: ${result.status}`)
  return result.documentId
}

describe('upkeep', () => {
  it('reclaims the dead rows a deleted import leaves, table by table, and records the longest pause', async () => {
    const ids = [await importDocument(60), await importDocument(60)]
    const deleted = await editor().from('documents').delete().in('id', ids)
    expect(deleted.error).toBeNull()
    const before = await tableStat('public.chunks')
    expect(before.dead).toBeGreaterThan(0)

    const pass = await stack.upkeep.run()

    const chunks = pass.tables.find((t) => t.table === 'public.chunks')
    expect(chunks?.deadRows).toBe(before.dead)
    const after = await tableStat('public.chunks')
    expect(after.dead).toBe(0)
    expect(after.vacuums).toBe(before.vacuums + 1)
    expect(after.analyzes).toBe(before.analyzes + 1)
    // One statement per table: the longest is the longest any request could have waited.
    expect(pass.longestPauseMs).toBe(Math.max(...pass.tables.map((t) => t.ms)))
    expect(stack.upkeep.stats().longestPauseMs).toBeGreaterThanOrEqual(pass.longestPauseMs)
    expect(stack.upkeep.stats().passes).toBeGreaterThanOrEqual(1)
  })

  it('leaves alone tables below the threshold, and vacuums every table when asked for all', async () => {
    await stack.upkeep.run()
    const quiet = await stack.upkeep.run()
    expect(quiet.tables.map((t) => t.table)).not.toContain('public.chunks')

    const all = await stack.upkeep.run({ all: true })
    const tables = all.tables.map((t) => t.table)
    expect(tables).toEqual(expect.arrayContaining(['public.chunks', 'public.documents']))
    expect(tables).toEqual(expect.arrayContaining(['auth.users', 'storage.objects']))
  })

  it('keeps answering requests during a pass', async () => {
    await importDocument(40)
    const [pass, listed] = await Promise.all([
      stack.upkeep.run({ all: true }),
      editor().from('documents').select('id').eq('workspace_id', workspaceId),
    ])
    expect(listed.error).toBeNull()
    expect(listed.data!.length).toBeGreaterThan(0)
    expect(pass.tables.length).toBeGreaterThan(5)
  })
})
