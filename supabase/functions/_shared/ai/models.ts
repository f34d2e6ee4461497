// The one map from model ids (`<provider>:<model>`) to providers, and the catalog of models
// offered per provider. Which providers exist is decided by the functions' environment.

export type ProviderName = 'openai' | 'anthropic' | 'google' | 'compatible'

export type ChatModelInfo = { id: string; label: string; provider: ProviderName }
/** `dimensions` is null when only the provider knows it (an OpenAI-compatible server's model). */
export type EmbeddingModelInfo = ChatModelInfo & { dimensions: number | null }

type Env = (name: string) => string | undefined

/** The variables that switch a provider on. */
export const providerKeys: Record<ProviderName, string[]> = {
  openai: ['OPENAI_API_KEY'],
  anthropic: ['ANTHROPIC_API_KEY'],
  google: ['GOOGLE_GENERATIVE_AI_API_KEY'],
  compatible: ['OPENAI_COMPATIBLE_BASE_URL'],
}

const chatCatalog: Record<Exclude<ProviderName, 'compatible'>, [string, string][]> = {
  openai: [
    ['gpt-4.1-mini', 'GPT-4.1 mini'],
    ['gpt-4.1', 'GPT-4.1'],
    ['gpt-4o-mini', 'GPT-4o mini'],
  ],
  anthropic: [
    ['claude-haiku-4-5', 'Claude Haiku 4.5'],
    ['claude-sonnet-4-5', 'Claude Sonnet 4.5'],
  ],
  google: [
    ['gemini-2.5-flash', 'Gemini 2.5 Flash'],
    ['gemini-2.5-pro', 'Gemini 2.5 Pro'],
  ],
}

const embeddingCatalog: Partial<Record<ProviderName, [string, string, number][]>> = {
  openai: [
    ['text-embedding-3-small', 'OpenAI text-embedding-3-small', 1536],
    ['text-embedding-3-large', 'OpenAI text-embedding-3-large', 3072],
  ],
  google: [['gemini-embedding-001', 'Gemini embedding 001', 3072]],
}

const providerLabels: Record<ProviderName, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google',
  compatible: 'OpenAI-compatible',
}

export const isConfigured = (provider: ProviderName, env: Env) =>
  providerKeys[provider].every((name) => Boolean(env(name)))

/** `openai:gpt-4.1` → { provider: 'openai', model: 'gpt-4.1' }, or null when malformed. */
export function parseModelId(id: string): { provider: ProviderName; model: string } | null {
  const colon = id.indexOf(':')
  const provider = id.slice(0, colon) as ProviderName
  const model = id.slice(colon + 1)
  if (colon < 1 || !model || !(provider in providerKeys)) return null
  return { provider, model }
}

export function chatModels(env: Env): ChatModelInfo[] {
  const known = (Object.keys(chatCatalog) as (keyof typeof chatCatalog)[])
    .filter((provider) => isConfigured(provider, env))
    .flatMap((provider) =>
      chatCatalog[provider].map(([model, label]) => ({
        id: `${provider}:${model}`,
        label,
        provider,
      })),
    )
  const compatible = env('OPENAI_COMPATIBLE_CHAT_MODEL')
  if (!isConfigured('compatible', env) || !compatible) return known
  const label = `${compatible} (${providerLabels.compatible})`
  return [...known, { id: `compatible:${compatible}`, label, provider: 'compatible' }]
}

/**
 * Rerank models: only an OpenAI-compatible server's `/rerank` endpoint (vLLM, Jina, llama.cpp,
 * Cohere-style), named by OPENAI_COMPATIBLE_RERANK_MODEL; the other providers offer none.
 */
export function rerankModels(env: Env): ChatModelInfo[] {
  const model = env('OPENAI_COMPATIBLE_RERANK_MODEL')
  if (!isConfigured('compatible', env) || !model) return []
  return [
    {
      id: `compatible:${model}`,
      label: `${model} (${providerLabels.compatible})`,
      provider: 'compatible',
    },
  ]
}

export function embeddingModels(env: Env): EmbeddingModelInfo[] {
  const known = (Object.keys(embeddingCatalog) as ProviderName[])
    .filter((provider) => isConfigured(provider, env))
    .flatMap((provider) =>
      (embeddingCatalog[provider] ?? []).map(([model, label, dimensions]) => ({
        id: `${provider}:${model}`,
        label,
        provider,
        dimensions,
      })),
    )
  const compatible = env('OPENAI_COMPATIBLE_EMBEDDING_MODEL')
  if (!isConfigured('compatible', env) || !compatible) return known
  const dimensions = Number(env('OPENAI_COMPATIBLE_EMBEDDING_DIMENSIONS')) || null
  const label = `${compatible} (${providerLabels.compatible})`
  return [...known, { id: `compatible:${compatible}`, label, provider: 'compatible', dimensions }]
}
