import type { Doubt } from '../_shared/core/chat/citations.ts'
import { applyJudgement, judgePrompt, parseJudgement } from '../_shared/core/chat/judge.ts'
import type { Citation } from '../_shared/core/chat/types.ts'
import { generateText, type LanguageModel } from '../_shared/ai/deps.ts'
import { maxRetries } from '../_shared/ai/providers.ts'
import { patiently } from './patience.ts'

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
    const { text } = await patiently(signal, (abortSignal) =>
      generateText({ model, instructions: system, prompt, maxRetries, abortSignal }),
    )
    return applyJudgement(citations, asked, parseJudgement(text, asked.length))
  } catch (error) {
    console.warn(`chat: the citation judge failed, keeping the lexical check: ${error}`)
    return citations
  }
}
