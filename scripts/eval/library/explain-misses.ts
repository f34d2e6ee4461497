import type { SupabaseClient } from '@supabase/supabase-js'
import {
  type ExplainedHit,
  explainMiss,
  missLines,
} from '../../../packages/core/src/retrieval/miss-report.ts'
import { scoreRanking } from '../../../packages/core/src/retrieval/page-metrics.ts'
import type { Answered } from './ask-library.ts'

/** How deep a miss is looked for: the most the search function returns. */
const EXPLAIN_DEPTH = 100

type Row = {
  document_id: string
  page_start: number | null
  page_end: number | null
  score: number
  snippet: string
}

/**
 * For each question whose evidence page is not in its document's first results, the
 * document's search again, deeper: where the evidence ranks, its score, and the pages above
 * it (eval:library --explain).
 */
export async function explainMisses(
  supabase: SupabaseClient,
  workspaceId: string,
  /** Ids by file name (readyDocuments). */
  documentIds: Map<string, string>,
  answers: Answered[],
): Promise<string[]> {
  const lines: string[] = []
  for (const { question, document } of answers) {
    const evidence = { document: question.file, pages: question.evidence.map((e) => e.page) }
    if (scoreRanking(document, evidence).rank !== null) continue
    const documentId = documentIds.get(question.file)!
    const { data, error } = await supabase.functions.invoke<{ results: Row[] }>('search', {
      body: {
        workspace_id: workspaceId,
        query: question.question,
        document_ids: [documentId],
        limit: EXPLAIN_DEPTH,
      },
    })
    if (error) throw new Error(`search failed on ${question.id}: ${error.message}`)
    // Filtered to one document, every result is of the question's file.
    const ranked: ExplainedHit[] = data!.results.map((row) => ({
      document: question.file,
      pageStart: row.page_start,
      pageEnd: row.page_end,
      score: row.score,
      snippet: row.snippet,
    }))
    const pages = evidence.pages.join(', ')
    lines.push(
      `\n${question.id} ${question.file} (evidence p${pages}): ${question.question.slice(0, 160)}`,
      ...missLines(explainMiss(ranked, evidence), EXPLAIN_DEPTH),
    )
  }
  return lines
}
