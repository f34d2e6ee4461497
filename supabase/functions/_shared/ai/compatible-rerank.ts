// A rerank model behind an OpenAI-compatible server's `/rerank` endpoint, in the wire format
// that vLLM, Jina, llama.cpp and Cohere's v2 API share: { model, query, documents, top_n } →
// { results: [{ index, relevance_score }] }. The AI SDK's OpenAI-compatible provider offers
// no reranking model, so this is one, behind the SDK's `rerank()`.
import { APICallError, type RerankingModel } from './deps.ts'

type Options = { baseURL: string; apiKey: string | undefined; fetch: typeof fetch }
type Answer = { results?: { index?: unknown; relevance_score?: unknown }[] }

export function compatibleRerankingModel(modelId: string, options: Options): RerankingModel {
  const url = `${options.baseURL.replace(/\/$/, '')}/rerank`
  return {
    specificationVersion: 'v4',
    provider: 'compatible.rerank',
    modelId,
    async doRerank({ documents, query, topN, abortSignal, headers }) {
      const body = {
        model: modelId,
        query,
        documents: documents.type === 'text' ? documents.values : documents.values.map(String),
        ...(topN === undefined ? {} : { top_n: topN }),
      }
      const res = await options.fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          ...headers,
        },
        body: JSON.stringify(body),
        signal: abortSignal,
      })
      const text = await res.text()
      if (!res.ok) {
        throw new APICallError({
          message: text.slice(0, 300) || res.statusText,
          url,
          requestBodyValues: body,
          statusCode: res.status,
          responseBody: text,
          isRetryable: res.status === 429 || res.status >= 500,
        })
      }
      return { ranking: readRanking(text, body.documents.length) }
    },
  }
}

/**
 * The answer's ranking, best first, strictly: every result names a document that exists and
 * has a score (servers differ on whether they sort, so the scores decide).
 */
function readRanking(text: string, count: number) {
  const answer = JSON.parse(text) as Answer
  if (!Array.isArray(answer.results)) throw new Error('The rerank answer has no results')
  const ranking = answer.results.map(({ index, relevance_score: score }) => {
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= count) {
      throw new Error(`The rerank answer names no such document: ${String(index)}`)
    }
    if (typeof score !== 'number') throw new Error('The rerank answer has a result without score')
    return { index: index as number, relevanceScore: score }
  })
  return ranking.sort((a, b) => b.relevanceScore - a.relevanceScore)
}
