// Model ids → AI SDK models, configured from the functions' environment. Keys stay here, in
// the Edge Functions; the browser only ever sees model ids and labels.
import {
  createAnthropic,
  createGoogleGenerativeAI,
  createOpenAI,
  createOpenAICompatible,
  type EmbeddingModel,
  type LanguageModel,
  type RerankingModel,
} from './deps.ts'
import { compatibleRerankingModel } from './compatible-rerank.ts'
import {
  type ChatModelInfo,
  chatModels,
  type EmbeddingModelInfo,
  embeddingModels,
  isConfigured,
  parseModelId,
  type ProviderName,
  providerKeys,
  rerankModels,
} from './models.ts'

const env = (name: string) => Deno.env.get(name) || undefined

/**
 * Retries the SDK may make, with exponential backoff honouring retry-after. The SDK only
 * retries a call that failed before any answer arrived (a 429, a 5xx, a dropped connection),
 * never a stream that has started, so nothing is sent or billed twice.
 */
export const maxRetries = 2

/** How long a provider may take to start answering one request (tests shorten it). */
const requestTimeoutMs = Number(env('AI_REQUEST_TIMEOUT_MS')) || 30_000

/**
 * fetch that gives up when the answer has not started within requestTimeoutMs. Per attempt
 * (the SDK's retries each get their own), and only until the headers arrive, so a long
 * streamed answer is never cut.
 */
const timedFetch: typeof fetch = async (input, init) => {
  const timeout = new AbortController()
  const timer = setTimeout(
    () => timeout.abort(new DOMException('The AI provider did not answer', 'TimeoutError')),
    requestTimeoutMs,
  )
  const signal = init?.signal ? AbortSignal.any([init.signal, timeout.signal]) : timeout.signal
  try {
    return await fetch(input, { ...init, signal })
  } finally {
    clearTimeout(timer)
  }
}

/** A model id that cannot be used: malformed, or its provider is not configured. */
export class ModelUnavailableError extends Error {
  override name = 'ModelUnavailableError'
}

export function availableModels(): {
  chat: ChatModelInfo[]
  embedding: EmbeddingModelInfo[]
  rerank: ChatModelInfo[]
} {
  return { chat: chatModels(env), embedding: embeddingModels(env), rerank: rerankModels(env) }
}

function providerOf(id: string): { provider: ProviderName; model: string } {
  const parsed = parseModelId(id)
  if (!parsed) {
    throw new ModelUnavailableError(`"${id}" is not a model id like openai:gpt-4.1-mini`)
  }
  if (!isConfigured(parsed.provider, env)) {
    const keys = providerKeys[parsed.provider].join(', ')
    throw new ModelUnavailableError(
      `The model ${id} needs ${keys} in the functions' environment (supabase/functions/.env)`,
    )
  }
  return parsed
}

const openai = () =>
  createOpenAI({
    apiKey: env('OPENAI_API_KEY'),
    baseURL: env('OPENAI_BASE_URL'),
    fetch: timedFetch,
  })
const anthropic = () =>
  createAnthropic({
    apiKey: env('ANTHROPIC_API_KEY'),
    baseURL: env('ANTHROPIC_BASE_URL'),
    fetch: timedFetch,
  })
const google = () =>
  createGoogleGenerativeAI({
    apiKey: env('GOOGLE_GENERATIVE_AI_API_KEY'),
    baseURL: env('GOOGLE_GENERATIVE_AI_BASE_URL'),
    fetch: timedFetch,
  })
const compatible = () =>
  createOpenAICompatible({
    name: 'compatible',
    baseURL: env('OPENAI_COMPATIBLE_BASE_URL')!,
    apiKey: env('OPENAI_COMPATIBLE_API_KEY'),
    includeUsage: true,
    fetch: timedFetch,
  })

/** The chat model for an id such as `anthropic:claude-haiku-4-5`. */
export function chatModel(id: string): LanguageModel {
  const { provider, model } = providerOf(id)
  switch (provider) {
    case 'openai':
      // Chat Completions rather than the Responses API: what compatible servers speak too.
      return openai().chat(model)
    case 'anthropic':
      return anthropic().messages(model)
    case 'google':
      return google().chat(model)
    case 'compatible':
      return compatible().chatModel(model)
  }
}

/** The embedding model for an id such as `openai:text-embedding-3-small`. */
export function embeddingModel(id: string): EmbeddingModel {
  const { provider, model } = providerOf(id)
  switch (provider) {
    case 'openai':
      return openai().embeddingModel(model)
    case 'google':
      return google().embeddingModel(model)
    case 'compatible':
      return compatible().embeddingModel(model)
    case 'anthropic':
      throw new ModelUnavailableError('Anthropic offers no embedding models')
  }
}

/** The server's rerank model, or null when its environment names none. */
export function rerankingModel(): RerankingModel | null {
  const info = rerankModels(env)[0]
  if (!info) return null
  return compatibleRerankingModel(info.id.slice('compatible:'.length), {
    baseURL: env('OPENAI_COMPATIBLE_BASE_URL')!,
    apiKey: env('OPENAI_COMPATIBLE_API_KEY'),
    fetch: timedFetch,
  })
}
