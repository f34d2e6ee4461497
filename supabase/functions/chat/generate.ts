import { extractiveAnswer } from '../../../packages/core/src/chat/extractive.ts'
import { buildPrompt, rewriteQuestionPrompt } from '../../../packages/core/src/chat/prompt.ts'
import { splitSentences } from '../../../packages/core/src/chat/sentences.ts'
import type { Source } from '../../../packages/core/src/chat/types.ts'
import { generateText, type LanguageModel, streamText } from '../_shared/ai/deps.ts'
import { chatModel, maxRetries, ModelUnavailableError } from '../_shared/ai/providers.ts'
import { patience, patiently } from './patience.ts'
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
  const { text } = await patiently(signal, (abortSignal) =>
    generateText({ model, instructions: system, prompt, maxRetries, abortSignal }),
  )
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
  const wait = patience(signal)
  const result = streamText({
    model,
    instructions: prompt.system,
    messages: prompt.messages,
    maxRetries,
    abortSignal: wait.signal,
    // Failures come out of the stream below; the default handler would only log them.
    onError: () => {},
  })
  let usage: Usage | null = null
  async function* deltas() {
    try {
      for await (const part of result.fullStream) {
        wait.touch()
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
    } finally {
      wait.end()
    }
  }
  return { deltas: deltas(), usage: () => usage }
}
