// The text bench:search indexes: SciFact abstracts and chunks of a few FinanceBench filings,
// repeated with words dropped at random until there are enough, deterministically (the same
// seed gives the same text), loaded as the database owner in large statements.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chunkDocument } from '@sourcebook/core/chunk/chunk-document'
import { extractDocument } from '@sourcebook/core/extract/extract-document'
import type { Localbase } from '../packages/localbase/src/index.ts'
import type { CorpusEntry } from '../scripts/eval/beir.ts'

// Filings of different industries, about 260 pages in all.
const FILINGS = ['NETFLIX_2015_10K.pdf', 'AMAZON_2017_10K.pdf', 'BESTBUY_2019_10K.pdf']
const BATCH = 5_000

export type Passage = { title: string; content: string; mimeType: string }

/** One passage per SciFact abstract, then one per chunk of the filings. */
export async function readPassages(scifact: CorpusEntry[], financeDir: string) {
  const passages: Passage[] = scifact.map((e) => ({
    title: e.title,
    content: `${e.title}\n\n${e.text}`,
    mimeType: 'text/plain',
  }))
  for (const file of FILINGS) {
    const bytes = new Uint8Array(readFileSync(join(financeDir, file)))
    const doc = await extractDocument({ bytes, fileName: file })
    for (const chunk of chunkDocument(doc))
      passages.push({
        title: file.replace(/\.pdf$/, ''),
        content: chunk.content,
        mimeType: 'application/pdf',
      })
  }
  return passages
}

/** A deterministic generator, so every run indexes the same text. */
function random(seed: number) {
  return () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32
}

/**
 * Inserts `count` ready one-chunk documents into the workspace, cycling through the
 * passages with 15% of the words dropped at random. Calls `progress` after each batch.
 */
export async function loadPassages(
  lb: Localbase,
  workspaceId: string,
  passages: Passage[],
  count: number,
  progress: (done: number) => void,
) {
  const rand = random(42)
  const perturb = (text: string) =>
    text
      .split(' ')
      .filter(() => rand() > 0.15)
      .join(' ')
  for (let done = 0; done < count; done += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, count - done) }, (_, i) => {
      const passage = passages[(done + i) % passages.length]!
      return { ...passage, content: perturb(passage.content) }
    })
    await lb.db.asService((tx) =>
      tx.query(
        `with rows as (
           select r.title, r.content, r."mimeType" as mime_type, gen_random_uuid() as id
           from jsonb_to_recordset($2::jsonb) as r(title text, content text, "mimeType" text)
         ), docs as (
           insert into public.documents
             (id, workspace_id, title, mime_type, status, stage, chunk_count)
           select id, $1, left(title, 500), mime_type, 'ready', 'ready', 1 from rows
         )
         insert into public.chunks (document_id, workspace_id, ordinal, content)
         select id, $1, 0, content from rows`,
        [workspaceId, JSON.stringify(rows)],
      ),
    )
    progress(done + rows.length)
  }
  await lb.db.pg.query('analyze public.chunks, public.documents, public.chunk_term_stats')
}
