import type { Doubt } from '../../../packages/core/src/chat/citations.ts'
import { extractiveAnswer } from '../../../packages/core/src/chat/extractive.ts'
import {
  applyJudgement,
  judgePrompt,
  parseJudgement,
} from '../../../packages/core/src/chat/judge.ts'
import { buildPrompt, rewriteQuestionPrompt } from '../../../packages/core/src/chat/prompt.ts'
import { splitSentences } from '../../../packages/core/src/chat/sentences.ts'
import type { Citation, Source } from '../../../packages/core/src/chat/types.ts'
import { generateText, type LanguageModel, streamText } from '../_shared/ai/deps.ts'
import { chatModel, maxRetries, ModelUnavailableError } from '../_shared/ai/providers.ts'
import type { Turn } from './turn.ts'

export type Usage = {
  input_tokens: number | null
  output_tokens: number | null
  total_tokens: number | null
}

/** An answer being produced: its text arrives as deltas; usage is known once they end. */
export type Generation = { deltas: AsyncIterable<string>; usage(): Usage | null }

/** The workspace's chat model, or null (offline) when it has none or its provider is not set up. */
export function pickModel(id: string | null): LanguageModel | null {
  if (!id) return null
  try {
    return chatModel(id)
  } catch (error) {
    if (error instanceof ModelUnavailableError) return null
    throw error
  }
}

/** A follow-up rewritten into a query that stands alone; offline, the question as asked. */
export async function standaloneQuery(
  model: LanguageModel | null,
  turn: Turn,
  signal: AbortSignal,
): Promise<string> {
  if (!model || !turn.history.some((t) => t.role === 'user')) return turn.question
  const { system, prompt } = rewriteQuestionPrompt(turn.history, turn.question)
  const { text } = await generateText({
    model,
    instructions: system,
    prompt,
    maxRetries,
    abortSignal: signal,
  })
  const query = (text.trim().split('\n')[0] ?? '').replace(/^["'“]+|["'”]+$/g, '').slice(0, 1000)
  return query.trim() || turn.question
}

/** The extractive answer, a sentence at a time, so offline answers stream like the others. */
export function extract(question: string, sources: Source[]): Generation {
  const text = extractiveAnswer(question, sources)
  async function* deltas() {
    const sentences = splitSentences(text)
    for (const [i, s] of sentences.entries()) yield i < sentences.length - 1 ? `${s.text} ` : s.text
  }
  return { deltas: deltas(), usage: () => null }
}

/** The model's answer from the fenced sources, streamed; provider failures are thrown. */
export function generate(
  model: LanguageModel,
  turn: Turn,
  sources: Source[],
  signal: AbortSignal,
): Generation {
  const prompt = buildPrompt({ question: turn.question, history: turn.history, sources })
  const result = streamText({
    model,
    instructions: prompt.system,
    messages: prompt.messages,
    maxRetries,
    abortSignal: signal,
    // Failures come out of the stream below; the default handler would only log them.
    onError: () => {},
  })
  let usage: Usage | null = null
  async function* deltas() {
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') yield part.text
      else if (part.type === 'error') throw part.error
      else if (part.type === 'finish') {
        const { inputTokens, outputTokens, totalTokens } = part.totalUsage
        usage = {
          input_tokens: inputTokens ?? null,
          output_tokens: outputTokens ?? null,
          total_tokens: totalTokens ?? null,
        }
      }
    }
  }
  return { deltas: deltas(), usage: () => usage }
}

/** At most this many doubted sentences go to the judge, to bound its prompt. */
const MAX_DOUBTS = 8

/**
 * The model as judge of the citations the lexical check doubts (a paraphrase shares few
 * words with its passage). When the judge fails, the lexical verdicts stand.
 */
export async function judgeCitations(
  model: LanguageModel,
  citations: Citation[],
  doubts: Doubt[],
  signal: AbortSignal,
): Promise<Citation[]> {
  if (doubts.length === 0) return citations
  const asked = doubts.slice(0, MAX_DOUBTS)
  try {
    const { system, prompt } = judgePrompt(asked)
    const { text } = await generateText({
      model,
      instructions: system,
      prompt,
      maxRetries,
      abortSignal: signal,
    })
    return applyJudgement(citations, asked, parseJudgement(text, asked.length))
  } catch (error) {
    console.warn(`chat: the citation judge failed, keeping the lexical check: ${error}`)
    return citations
  }
}
