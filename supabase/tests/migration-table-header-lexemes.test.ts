import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { statementPdf } from '../../packages/core/src/testing/statement-pdf.ts'
import { scratchDatabase } from '../../packages/localbase/test/scratch-database.ts'
import { clientFor, startStack, type Stack } from './stack.ts'
import { termStatistics } from './term-statistics.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// 20260101005000_table_header_lexemes.sql changes what chunks are indexed by on databases
// that already hold some: a workspace's chunks are written before it (by the migrations
// up to it, run from a copy of supabase/ without the later ones), then localbase restarts
// on the same data with all of them.
const migration = '20260101005000'
const root = new URL('../..', import.meta.url).pathname

function workdirBefore(version: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sourcebook-before-'))
  const supabase = join(dir, 'supabase')
  mkdirSync(join(supabase, 'migrations'), { recursive: true })
  for (const entry of readdirSync(join(root, 'supabase')))
    if (entry !== 'migrations') symlinkSync(join(root, 'supabase', entry), join(supabase, entry))
  for (const file of readdirSync(join(root, 'supabase', 'migrations')))
    if (file < version)
      symlinkSync(join(root, 'supabase', 'migrations', file), join(supabase, 'migrations', file))
  return dir
}

const dataDir = mkdtempSync(join(tmpdir(), 'sourcebook-db-test-'))
const before = workdirBefore(migration)
let stack: Stack
let people: People
const workspaces: string[] = []
let tableDocument: string
let tableChunks: { id: string; content: string }[]
let proseChunks: string[]

async function search(query: string, workspaceId: string, documentId: string): Promise<string[]> {
  const { data, error } = await clientFor(stack, people.editor).rpc('search_chunks', {
    workspace_id: workspaceId,
    query,
    match_count: 100,
    document_ids: [documentId],
    snippets: false,
  })
  expect(error).toBeNull()
  return (data as { chunk_id: string }[]).map((row) => row.chunk_id)
}

beforeAll(async () => {
  stack = await startStack({}, { dataDir, workdir: before })
  people = await createPeople(stack)
  for (let i = 0; i < 2; i++) workspaces.push((await createWorld(stack, people)).workspaceId)
  const result = await ingestFile(clientFor(stack, people.editor), {
    workspaceId: workspaces[0]!,
    bytes: statementPdf(80),
    fileName: 'statement.pdf',
    mimeType: 'application/pdf',
  })
  if (result.status !== 'ready') throw new Error(`not ready: ${JSON.stringify(result)}`)
  tableDocument = result.documentId
  const { data } = await clientFor(stack, people.editor)
    .from('chunks')
    .select('id, content')
    .eq('document_id', tableDocument)
    .order('ordinal')
  tableChunks = data!
  const prose = ['Quarterly revenue rose on strong demand.', 'Inventories fell; revenue held.']
  for (const workspace of workspaces)
    proseChunks = (await addReadyDocument(stack, people.editor, workspace, 'Notes', prose)).chunkIds
  // Before the migration a passage deep in the table is not found by its header row.
  expect(await search('2019', workspaces[0]!, tableDocument)).toHaveLength(1)
  await stack.stop()
  stack = await startStack({}, { dataDir })
}, 120_000)

afterAll(async () => {
  await stack.stop()
  await (await scratchDatabase(dataDir))?.drop()
  rmSync(dataDir, { recursive: true, force: true })
  rmSync(before, { recursive: true, force: true })
})

describe('the table header lexemes migration on existing chunks', () => {
  it('ran on restart', async () => {
    const { rows } = await stack.db.pg.query(
      'select 1 from supabase_migrations.schema_migrations where version = $1',
      [migration],
    )
    expect(rows).toHaveLength(1)
  })

  it('finds every passage of a stored long table by its header row, the rows unchanged', async () => {
    const found = await search('2019', workspaces[0]!, tableDocument)
    expect(new Set(found)).toEqual(new Set(tableChunks.map((c) => c.id)))
    const { data } = await clientFor(stack, people.editor)
      .from('chunks')
      .select('id, content')
      .eq('document_id', tableDocument)
      .order('ordinal')
    expect(data).toEqual(tableChunks)
    expect(await search('line item 70', workspaces[0]!, tableDocument)).not.toHaveLength(0)
  })

  it('finds stored prose by its words in every workspace', async () => {
    for (const workspace of workspaces) {
      const { data, error } = await clientFor(stack, people.editor).rpc('search_chunks', {
        workspace_id: workspace,
        query: 'inventories',
        match_count: 10,
        snippets: false,
      })
      expect(error).toBeNull()
      expect((data as { chunk_id: string }[]).map((row) => row.chunk_id)).toHaveLength(1)
    }
    expect(proseChunks).toHaveLength(2)
  })

  it('keeps the term statistics exact, peaks included, and the trigger keeps them so', async () => {
    const { expectExactStatistics } = termStatistics(stack)
    for (const workspace of workspaces) await expectExactStatistics(workspace, 'exact')
    await addReadyDocument(stack, people.editor, workspaces[1]!, 'More', [
      '| | 2020 | 2019 |\n| --- | --- | --- |\n| Revenue | 5 | 4 |',
    ])
    for (const workspace of workspaces) await expectExactStatistics(workspace, 'exact')
  })

  it('keeps the columns’ storage and indexes as earlier migrations set them', async () => {
    const { rows } = await stack.db.pg.query<{ storage: string; options: string[] | null }>(
      `select a.attstorage as storage,
         (select reloptions from pg_class where oid = 'public.chunks_lexemes_idx'::regclass)
           as options
       from pg_attribute a
       where a.attrelid = 'public.chunks'::regclass and a.attname = 'lexemes'`,
    )
    // fastupdate on since 20260101008200_chunk_lexemes_merged_per_statement.sql.
    expect(rows).toEqual([{ storage: 'm', options: ['fastupdate=on'] }])
    const index = await stack.db.pg.query(
      `select 1 from pg_indexes where indexname = 'chunks_workspace_length_idx'`,
    )
    expect(index.rows).toHaveLength(1)
  })
})
