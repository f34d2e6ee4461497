import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export type CorpusEntry = { id: string; title: string; text: string }

/** A BEIR dataset folder: corpus.jsonl, queries.jsonl and qrels/<split>.tsv. */
export type Dataset = {
  corpus: CorpusEntry[]
  /** The split's queries (those with judgements), in file order. */
  queries: { id: string; text: string }[]
  /** Query id → corpus id → grade. */
  qrels: Map<string, Map<string, number>>
}

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T)
}

export function loadBeir(folder: string, split: string): Dataset {
  const qrels = new Map<string, Map<string, number>>()
  const lines = readFileSync(join(folder, 'qrels', `${split}.tsv`), 'utf8')
    .trim()
    .split('\n')
  for (const line of lines.slice(1)) {
    const [queryId, corpusId, grade] = line.split('\t')
    if (!queryId || !corpusId) continue
    if (!qrels.has(queryId)) qrels.set(queryId, new Map())
    qrels.get(queryId)!.set(corpusId, Number(grade))
  }
  type Raw = { _id: string; title?: string; text?: string }
  const corpus = readJsonl<Raw>(join(folder, 'corpus.jsonl')).map((d) => ({
    id: String(d._id),
    title: d.title ?? '',
    text: d.text ?? '',
  }))
  const queries = readJsonl<Raw>(join(folder, 'queries.jsonl'))
    .map((q) => ({ id: String(q._id), text: q.text ?? '' }))
    .filter((q) => qrels.has(q.id))
  return { corpus, queries, qrels }
}
