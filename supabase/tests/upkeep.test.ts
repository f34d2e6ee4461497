import { describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { startIngestWorld } from './ingest-helpers.ts'

const { stack, db, workspaceId, editor } = await startIngestWorld()

type TableStat = { dead: number; vacuums: number; analyzes: number; toastDead: number }

async function tableStat(table: string): Promise<TableStat> {
  await db.rows('select pg_stat_force_next_flush()')
  const [row] = await db.rows<TableStat>(
    `select s.n_dead_tup::int as dead, s.vacuum_count::int as vacuums,
       s.analyze_count::int as analyzes, coalesce(t.n_dead_tup, 0)::int as "toastDead"
     from pg_stat_user_tables s join pg_class c on c.oid = s.relid
     left join pg_stat_all_tables t on t.relid = c.reltoastrelid
     where format('%I.%I', s.schemaname, s.relname) = $1`,
    [table],
  )
  return row!
}

/**
 * Imports a document of `n` paragraphs of random words: its text is long and does not
 * compress, so it is stored in document_texts' TOAST table, as long filings are.
 */
async function importDocument(n: number): Promise<string> {
  const paragraphs = Array.from(
    { length: n },
    (_, i) => `Paragraph ${i}: ${Array.from({ length: 10 }, () => crypto.randomUUID()).join(' ')}`,
  )
  const result = await ingestFile(editor(), {
    workspaceId,
    bytes: new TextEncoder().encode(paragraphs.join('\n\n')),
    fileName: `ledger-${crypto.randomUUID()}.txt`,
  })
  if (result.status !== 'ready') throw new Error(`import: ${result.status}`)
  return result.documentId
}

describe('upkeep', () => {
  it('reclaims the dead rows a deleted import leaves, table by table, and records the longest pause', async () => {
    const ids = [await importDocument(400), await importDocument(400)]
    const deleted = await editor().from('documents').delete().in('id', ids)
    expect(deleted.error).toBeNull()
    const before = await tableStat('public.chunks')
    expect(before.dead).toBeGreaterThan(0)
    // Few rows, but long ones: the dead are in its TOAST table.
    expect((await tableStat('public.document_texts')).toastDead).toBeGreaterThan(50)

    const pass = await stack.upkeep.run()

    const chunks = pass.tables.find((t) => t.table === 'public.chunks')
    expect(chunks?.deadRows).toBeGreaterThanOrEqual(before.dead)
    expect(pass.tables.map((t) => t.table)).toContain('public.document_texts')
    expect((await tableStat('public.document_texts')).toastDead).toBe(0)
    const after = await tableStat('public.chunks')
    expect(after.dead).toBe(0)
    expect(after.vacuums).toBe(before.vacuums + 1)
    expect(after.analyzes).toBe(before.analyzes + 1)
    // Vacuum and analyze are two statements, each a pause shorter than the table's whole
    // upkeep; the longest is the longest any request could have waited.
    for (const t of pass.tables) expect(t.pauseMs).toBeLessThan(t.ms)
    expect(pass.longestPauseMs).toBe(Math.max(...pass.tables.map((t) => t.pauseMs)))
    expect(stack.upkeep.stats().longestPauseMs).toBeGreaterThanOrEqual(pass.longestPauseMs)
    expect(stack.upkeep.stats().passes).toBeGreaterThanOrEqual(1)
  }, 90_000)

  it('leaves alone tables below the threshold, and vacuums every table when asked for all', async () => {
    await stack.upkeep.run()
    const quiet = await stack.upkeep.run()
    expect(quiet.tables.map((t) => t.table)).not.toContain('public.chunks')

    const all = await stack.upkeep.run({ all: true })
    const tables = all.tables.map((t) => t.table)
    expect(tables).toEqual(expect.arrayContaining(['public.chunks', 'public.documents']))
    expect(tables).toEqual(expect.arrayContaining(['auth.users', 'storage.objects']))
  })

  it('counts as a pause only what a statement held, not its wait behind requests', async () => {
    const deleted = await editor()
      .from('documents')
      .delete()
      .eq('id', await importDocument(40))
    expect(deleted.error).toBeNull()
    // Two members' requests of a second each, one always waiting while the other runs: each
    // vacuum or analyze queues behind the one running and waits for what is left of it.
    let passing = true
    const member = async () => {
      while (passing) await db.rows('select pg_sleep(1)')
    }
    const members = [member(), member()]
    const pass = await stack.upkeep.run()
    passing = false
    await Promise.all(members)
    expect(pass.tables.map((t) => t.table)).toContain('public.chunks')
    // The pass took its turns between the requests' seconds, yet held the database for
    // far less at a time: this test's tables are small.
    expect(pass.ms).toBeGreaterThan(1000)
    expect(pass.longestPauseMs).toBeLessThan(500)
  }, 90_000)

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
