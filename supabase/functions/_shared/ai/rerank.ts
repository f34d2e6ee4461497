// Reranking the passages retrieval found, shared by search and chat: by the server's rerank
// model, or by the workspace's chat model as a listwise judge. A person is waiting, so it is
// time-bounded, and any failure keeps retrieval's order: reranking never fails a request.
import {
  applyRanking,
  parseRanking,
  rerankDocument,
  type RerankPassage,
  rerankPrompt,
} from '../core/retrieval/rerank.ts'
import { generateText, type LanguageModel, rerank, type RerankingModel } from './deps.ts'
import { providerErrorMessage } from './errors.ts'
import { chatModel, ModelUnavailableError, rerankingModel } from './providers.ts'

/** The workspace's choice (workspaces.reranking). */
export type Reranking = 'off' | 'judge' | 'model'

/** How many of retrieval's best passages are reranked. */
export const RERANK_DEPTH = 40

/** Past this, retrieval's order stands (tests shorten it). */
const timeoutMs = Number(Deno.env.get('RERANK_TIMEOUT_MS')) || 8000

export type Reranker =
  { kind: 'judge'; model: LanguageModel } | { kind: 'model'; model: RerankingModel }

/**
 * The reranker a choice stands for, or null when it is off or cannot run here (no chat
 * model for the judge, no rerank model on this server): then retrieval's order stands.
 */
export function rerankerFor(choice: Reranking, chatModelId: string | null): Reranker | null {
  if (choice === 'model') {
    const model = rerankingModel()
    return model ? { kind: 'model', model } : null
  }
  if (choice !== 'judge' || !chatModelId) return null
  try {
    return { kind: 'judge', model: chatModel(chatModelId) }
  } catch (error) {
    if (error instanceof ModelUnavailableError) return null
    throw error
  }
}

/** The best order for `items`, by the reranker's judgement; `reranked` says whether it ran. */
export async function rerankPassages<T>(
  reranker: Reranker,
  query: string,
  items: T[],
  view: (item: T) => RerankPassage,
): Promise<{ items: T[]; reranked: boolean }> {
  if (items.length < 2) return { items, reranked: false }
  const passages = items.map(view)
  const started = performance.now()
  try {
    const order =
      reranker.kind === 'model'
        ? await byModel(reranker.model, query, passages)
        : await byJudge(reranker.model, query, passages)
    if (order === null) throw new Error('the reply was not a list of passage ids')
    return { items: applyRanking(items, order), reranked: true }
  } catch (error) {
    const ms = Math.round(performance.now() - started)
    console.warn(
      `rerank (${reranker.kind}) failed after ${ms} ms, keeping retrieval's order: ${providerErrorMessage(error).message}`,
    )
    return { items, reranked: false }
  }
}

async function byJudge(model: LanguageModel, query: string, passages: RerankPassage[]) {
  const { system, prompt } = rerankPrompt(query, passages)
  const { text } = await generateText({
    model,
    instructions: system,
    prompt,
    // No retries: a person is waiting, and retrieval's order is a fine answer.
    maxRetries: 0,
    abortSignal: AbortSignal.timeout(timeoutMs),
  })
  return parseRanking(text, passages.length)
}

async function byModel(model: RerankingModel, query: string, passages: RerankPassage[]) {
  const { ranking } = await rerank({
    model,
    query,
    documents: passages.map(rerankDocument),
    maxRetries: 0,
    abortSignal: AbortSignal.timeout(timeoutMs),
  })
  return ranking.map((r) => r.originalIndex)
}
