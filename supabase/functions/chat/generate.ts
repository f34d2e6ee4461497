import { closestPassages, extractiveAnswer } from '../_shared/core/chat/extractive.ts'
import { NO_ANSWER } from '../_shared/core/chat/no-answer.ts'
import { buildPrompt, rewriteQuestionPrompt } from '../_shared/core/chat/prompt.ts'
import { splitSentences } from '../_shared/core/chat/sentences.ts'
import { renumberByFirstUse } from '../_shared/core/chat/renumber.ts'
import type { Citation, Source } from '../_shared/core/chat/types.ts'
import { generateText, type LanguageModel, streamText } from '../_shared/ai/deps.ts'
import { providerErrorMessage } from '../_shared/ai/errors.ts'
import { chatModel, maxRetries, ModelUnavailableError } from '../_shared/ai/providers.ts'
import { patience } from './patience.ts'
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

/** The rewrite is one short call before retrieval: past this, the question as asked is used. */
const REWRITE_TIMEOUT_MS = Number(Deno.env.get('CHAT_REWRITE_TIMEOUT_MS')) || 8000

/**
 * A follow-up rewritten into a query that stands alone, naming the entities and periods the
 * conversation means; offline, or when the provider fails or is slow, the question as asked.
 */
export async function standaloneQuery(
  model: LanguageModel | null,
  turn: Turn,
  signal: AbortSignal,
): Promise<string> {
  if (!model || !turn.history.some((t) => t.role === 'user')) return turn.question
  const { system, prompt } = rewriteQuestionPrompt(turn.history, turn.question)
  try {
    const { text } = await generateText({
      model,
      instructions: system,
      prompt,
      // No retries: a person is waiting, and their own words are a fine query.
      maxRetries: 0,
      abortSignal: AbortSignal.any([signal, AbortSignal.timeout(REWRITE_TIMEOUT_MS)]),
    })
    const query = (text.trim().split('\n')[0] ?? '').replace(/^["'“]+|["'”]+$/g, '').slice(0, 1000)
    return query.trim() || turn.question
  } catch (error) {
    if (signal.aborted) throw error
    const problem = providerErrorMessage(error).message
    console.warn(
      `chat: the follow-up rewrite failed, searching with the question as asked: ${problem}`,
    )
    return turn.question
  }
}

/**
 * The extractive answer, found before the sources are shown so that they can be numbered in
 * the order it cites them, then streamed a sentence at a time like the others. With no
 * answer, `closest` holds the passages to show instead.
 */
export function extract(
  question: string,
  retrieved: Source[],
  compare = false,
): { generation: Generation; sources: Source[]; closest: Citation[] | null } {
  const found = extractiveAnswer(question, retrieved, { compare })
  const { answer, sources } = renumberByFirstUse(found, retrieved)
  const closest = found === NO_ANSWER ? closestPassages(question, sources) : null
  async function* deltas() {
    // Each delta runs to the next sentence, so the blank lines between documents survive.
    const starts = splitSentences(answer).map((s) => s.start)
    for (const [i, start] of starts.entries())
      yield answer.slice(i === 0 ? 0 : start, starts[i + 1])
  }
  return { generation: { deltas: deltas(), usage: () => null }, sources, closest }
}

/** The model's answer from the fenced sources, streamed; provider failures are thrown. */
export function generate(
  model: LanguageModel,
  turn: Turn,
  sources: Source[],
  signal: AbortSignal,
  compare = false,
): Generation {
  const prompt = buildPrompt({ question: turn.question, history: turn.history, sources, compare })
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
