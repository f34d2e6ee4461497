import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ingestFile } from '../packages/core/src/ingest/ingest-file.ts'
import { sharedData } from '../packages/core/src/testing/shared-data.ts'
import { clientFor, startStack } from '../supabase/tests/stack.ts'
import { createPeople, createWorld } from '../supabase/tests/world.ts'
import { startFakeProvider } from '../tests/fake-provider/server.ts'
import { readTrace, summarizeTrace } from './load-trace.ts'

// How long embedding one large filing holds PGlite's single connection: the filing is
// imported without a model, then embedded through the real embed Edge Function (the fake
// provider making 1,536-dimension vectors), first with the workspace's active model, then
// again as a switch to another model of that dimension (vectors staged, then promoted), then
// as an owner's outright change back (the old vectors dropped, new ones made). Every database
// job from the model change to the embed call's end is traced (LOCALBASE_DB_TRACE); the
// report is the longest holds and the statements behind them.
//   npm run bench:embed-hold -- [file in financebench-pdfs]

const file = process.argv[2] ?? 'AMERICANEXPRESS_2022_10K.pdf'
const dir = mkdtempSync(join(tmpdir(), 'embed-hold-'))
const tracePath = join(dir, 'trace.jsonl')
process.env.LOCALBASE_DB_TRACE = tracePath

const fake = await startFakeProvider({ apiKey: 'test', retryAfterSeconds: 0 })
const stack = await startStack({
  OPENAI_API_KEY: 'test',
  OPENAI_BASE_URL: `${fake.url}/v1`,
  EMBED_TIME_BUDGET_MS: '600000',
})
try {
  const people = await createPeople(stack)
  const { workspaceId } = await createWorld(stack, people)
  const editor = clientFor(stack, people.editor)
  const bytes = new Uint8Array(readFileSync(new URL(`financebench-pdfs/${file}`, sharedData)))
  const imported = await ingestFile(editor, { workspaceId, bytes, fileName: file })
  if (imported.status !== 'ready') throw new Error(JSON.stringify(imported))
  console.log(`${file}: ${imported.chunkCount} chunks`)

  const setModels = (models: Record<string, string | null>) =>
    stack.db.pg.query(
      `update public.workspaces set ${Object.keys(models)
        .map((key, i) => `${key} = $${i + 2}`)
        .join(', ')} where id = $1`,
      [workspaceId, ...Object.values(models)],
    )
  const embed = async (label: string, models: Record<string, string | null>) => {
    await new Promise((resolve) => setTimeout(resolve, 300))
    rmSync(tracePath, { force: true })
    const started = performance.now()
    await setModels(models)
    const { data, error } = await editor.functions.invoke('embed', {
      body: { document_id: imported.documentId },
    })
    if (error) throw new Error(`${label}: ${await error.context?.text?.()}`)
    const wallMs = performance.now() - started
    await new Promise((resolve) => setTimeout(resolve, 600))
    const summary = summarizeTrace(readTrace(tracePath))
    console.log(
      JSON.stringify({
        label,
        reply: data,
        wallMs: Math.round(wallMs),
        jobs: summary.jobs,
        maxHoldMs: summary.maxHoldMs,
        holdP95Ms: summary.holdP95Ms,
        top: summary.top.slice(0, 5),
      }),
    )
  }
  await embed('active model', { embedding_model: 'openai:text-embedding-3-small' })
  await embed('model switch (staged, promoted)', {
    pending_embedding_model: 'openai:text-embedding-ada-002',
  })
  await embed('outright change (old vectors dropped, made anew)', {
    embedding_model: 'openai:text-embedding-3-small',
  })
} finally {
  await stack.stop()
  await fake.close()
  rmSync(dir, { recursive: true, force: true })
}
