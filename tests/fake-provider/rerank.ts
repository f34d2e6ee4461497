// The `/rerank` answer of OpenAI-compatible rerank servers (vLLM, Jina, llama.cpp; Cohere v2
// has the same results): { id, model, results: [{ index, relevance_score }], usage }.

/**
 * The answer ranking `documents` in `order` (0-based indices, best first; the rest follow,
 * as a real server scores every document), or by shared words with the query by default.
 */
export function rerankAnswer(body: Record<string, unknown>, order?: number[]) {
  const documents = Array.isArray(body.documents) ? (body.documents as unknown[]).map(String) : []
  const query = String(body.query ?? '')
  const ranked = order ?? byOverlap(query, documents)
  const rest = documents.map((_, i) => i).filter((i) => !ranked.includes(i))
  const results = [...ranked, ...rest].map((index, rank) => ({
    index,
    relevance_score: 1 - rank / (documents.length + 1),
  }))
  const topN = typeof body.top_n === 'number' ? body.top_n : results.length
  const tokens = words(query).length + documents.reduce((sum, d) => sum + words(d).length, 0)
  return {
    id: `rerank-${Date.now()}`,
    model: String(body.model ?? 'fake-rerank'),
    results: results.slice(0, topN),
    usage: { total_tokens: tokens },
  }
}

const words = (text: string) => text.toLowerCase().match(/\p{L}+|\p{N}+/gu) ?? []

function byOverlap(query: string, documents: string[]): number[] {
  const asked = new Set(words(query))
  const score = (d: string) => words(d).filter((w) => asked.has(w)).length
  return documents
    .map((d, i) => ({ i, s: score(d) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((d) => d.i)
}
