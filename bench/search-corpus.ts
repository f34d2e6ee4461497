// The text bench:search indexes: SciFact abstracts and chunks of a few FinanceBench filings,
// repeated with words dropped at random until there are enough, deterministically (the same
// seed gives the same text), loaded as the database owner in large statements.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chunkDocument, type Chunk } from '@sourcebook/core/chunk/chunk-document'
import { extractDocument } from '@sourcebook/core/extract/extract-document'
import { storableText } from '@sourcebook/core/ingest/storable-text'
import { detectSignals } from '@sourcebook/core/signals/detect-signals'
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

/** Drops 15% of a text's words, deterministically: every run indexes the same text. */
function wordDropper() {
  let seed = 42
  const rand = () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32
  return (text: string) =>
    text
      .split(' ')
      .filter(() => rand() > 0.15)
      .join(' ')
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
  const perturb = wordDropper()
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

/** A filing as the import pipeline stores it: its passages with pages, and its signals. */
export type LibraryDocument = {
  title: string
  periods: string[]
  names: string[]
  opening: string
  chunks: Pick<Chunk, 'content' | 'headingPath' | 'pageStart' | 'pageEnd'>[]
}

/** Every PDF of the folders, extracted and chunked as an import would. */
export async function readLibrary(folders: string[]) {
  const documents: LibraryDocument[] = []
  for (const folder of folders)
    for (const file of readdirSync(folder)
      .filter((f) => f.endsWith('.pdf'))
      .sort()) {
      const bytes = new Uint8Array(readFileSync(join(folder, file)))
      const chunks = chunkDocument(await extractDocument({ bytes, fileName: file }))
      const { periods, names, opening } = detectSignals(file, chunks[0]?.content ?? '')
      documents.push({
        title: file,
        periods,
        names,
        opening,
        // As the import stores them: text Postgres can hold (no NULs, no lone surrogates).
        chunks: chunks.map(({ content, headingPath, pageStart, pageEnd }) => ({
          content: storableText(content),
          headingPath,
          pageStart,
          pageEnd,
        })),
      })
    }
  return documents
}

/**
 * Inserts copies of the documents (15% of each passage's words dropped at random, so no two
 * copies index alike) until the workspace holds `count` chunks: a library of many long,
 * similar documents, each with the context search_chunks scores as a document.
 */
export async function loadLibrary(
  lb: Localbase,
  workspaceId: string,
  documents: LibraryDocument[],
  count: number,
  progress: (done: number) => void,
) {
  const perturb = wordDropper()
  let done = 0
  for (let i = 0; done < count;) {
    const batch: (LibraryDocument & { id: string })[] = []
    for (let size = 0; size < BATCH && done + size < count; i++) {
      const doc = documents[i % documents.length]!
      const chunks = doc.chunks.slice(0, count - done - size).map((c) => ({
        ...c,
        content: perturb(c.content),
      }))
      batch.push({ ...doc, chunks, id: crypto.randomUUID() })
      size += chunks.length
    }
    await lb.db.asService(async (tx) => {
      const docs = batch.map((d) => ({ ...d, chunkCount: d.chunks.length, chunks: undefined }))
      await tx.query(
        `insert into public.documents
           (id, workspace_id, title, mime_type, status, stage, chunk_count, periods, names)
         select r.id, $1, r.title, 'application/pdf', 'ready', 'ready', r."chunkCount",
           r.periods, r.names
         from jsonb_to_recordset($2::jsonb)
           as r(id uuid, title text, "chunkCount" int, periods text[], names text[])`,
        [workspaceId, JSON.stringify(docs)],
      )
      await tx.query(
        `insert into public.document_texts (document_id, workspace_id, text, opening)
         select r.id, $1, '', r.opening
         from jsonb_to_recordset($2::jsonb) as r(id uuid, opening text)`,
        [workspaceId, JSON.stringify(docs)],
      )
      const chunks = batch.flatMap((d) =>
        d.chunks.map((c, ordinal) => ({ ...c, ordinal, documentId: d.id })),
      )
      await tx.query(
        `insert into public.chunks
           (document_id, workspace_id, ordinal, content, heading_path, page_start, page_end)
         select r."documentId", $1, r.ordinal, r.content, r."headingPath", r."pageStart",
           r."pageEnd"
         from jsonb_to_recordset($2::jsonb) as r("documentId" uuid, ordinal int,
           content text, "headingPath" text[], "pageStart" int, "pageEnd" int)`,
        [workspaceId, JSON.stringify(chunks)],
      )
    })
    done += batch.reduce((n, d) => n + d.chunks.length, 0)
    progress(done)
  }
  await lb.db.pg.query(
    'analyze public.chunks, public.documents, public.document_texts, public.chunk_term_stats',
  )
}
