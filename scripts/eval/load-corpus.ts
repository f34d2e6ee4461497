import { createHash } from 'node:crypto'
import type { SupabaseClient } from '@supabase/supabase-js'
import { chunkDocument } from '../../packages/core/src/chunk/chunk-document.ts'
import type { CorpusEntry } from './beir.ts'

const BATCH = 500

/**
 * A UUID made from `key` (RFC 9562 version 8: its bits are ours to choose). search_chunks
 * orders passages of exactly equal score by chunk id, so with random ids every run ordered
 * them differently (and, until 20260101006300, chose by id among documents tied for the last
 * boosted place: SciFact test's nDCG@10 moved between 0.6948 and 0.6960 from one run of the
 * same code to the next). Ids made from the corpus ids keep a run a function of the dataset,
 * to the last passage of the page. One copy of a corpus per database.
 */
export function corpusUuid(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex')
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/**
 * Writes each corpus entry as one document (title, then text) with its text and chunks,
 * through supabase-js as a workspace editor, in batches. Returns document id → corpus id.
 */
export async function loadCorpus(
  supabase: SupabaseClient,
  workspaceId: string,
  corpus: CorpusEntry[],
): Promise<Map<string, string>> {
  const corpusIdOf = new Map<string, string>()
  for (let from = 0; from < corpus.length; from += BATCH) {
    const documents = []
    const texts = []
    const chunks = []
    for (const entry of corpus.slice(from, from + BATCH)) {
      const id = corpusUuid(`document ${entry.id}`)
      corpusIdOf.set(id, entry.id)
      const text = entry.title ? `${entry.title}\n\n${entry.text}` : entry.text
      const parts = chunkDocument({ text, pages: [{ number: 1, start: 0, end: text.length }] })
      documents.push({
        id,
        workspace_id: workspaceId,
        title: entry.title.trim() || entry.id,
        status: 'ready',
        stage: 'ready',
        progress: 1,
        chunk_count: parts.length,
      })
      texts.push({ document_id: id, workspace_id: workspaceId, text })
      for (const part of parts)
        chunks.push({
          id: corpusUuid(`chunk ${entry.id} ${part.ordinal}`),
          document_id: id,
          workspace_id: workspaceId,
          ordinal: part.ordinal,
          content: part.content,
          heading_path: part.headingPath,
          page_start: part.pageStart,
          page_end: part.pageEnd,
          char_start: part.charStart,
          char_end: part.charEnd,
          token_count: part.tokenCount,
        })
    }
    const docs = await supabase.from('documents').insert(documents)
    if (docs.error) throw new Error(`inserting documents: ${docs.error.message}`)
    const text = await supabase.from('document_texts').insert(texts)
    if (text.error) throw new Error(`inserting document texts: ${text.error.message}`)
    for (let at = 0; at < chunks.length; at += BATCH) {
      const res = await supabase.from('chunks').insert(chunks.slice(at, at + BATCH))
      if (res.error) throw new Error(`inserting chunks: ${res.error.message}`)
    }
    process.stderr.write(`\rloaded ${Math.min(from + BATCH, corpus.length)}/${corpus.length}`)
  }
  return corpusIdOf
}
