import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../../packages/localbase/src/index.ts'
import { clientFor, startStack } from './stack.ts'

// The models function: what the functions' environment makes available, nothing more.
const noProvider = {
  OPENAI_API_KEY: '',
  ANTHROPIC_API_KEY: '',
  GOOGLE_GENERATIVE_AI_API_KEY: '',
  OPENAI_COMPATIBLE_BASE_URL: '',
}
const bare = await startStack(noProvider)
const configured = await startStack({
  ...noProvider,
  OPENAI_API_KEY: 'test',
  ANTHROPIC_API_KEY: 'test',
  OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:9/v1',
  OPENAI_COMPATIBLE_CHAT_MODEL: 'llama3.2',
  OPENAI_COMPATIBLE_EMBEDDING_MODEL: 'nomic-embed-text',
  OPENAI_COMPATIBLE_EMBEDDING_DIMENSIONS: '768',
  OPENAI_COMPATIBLE_RERANK_MODEL: 'bge-reranker-v2-m3',
})
afterAll(() => Promise.all([bare.stop(), configured.stop()]))

type Models = {
  chat: { id: string; label: string; provider: string }[]
  embedding: { id: string; label: string; provider: string; dimensions: number | null }[]
  rerank: { id: string; label: string; provider: string }[]
}

describe('models', () => {
  it('lists nothing when no provider is configured', async () => {
    const { data, error } = await clientFor(bare).functions.invoke<Models>('models')
    expect(error).toBeNull()
    expect(data).toEqual({ chat: [], embedding: [], rerank: [] })
  })

  it('lists the models of each configured provider, and only those', async () => {
    const { data, error } = await clientFor(configured).functions.invoke<Models>('models', {
      method: 'GET',
    })
    expect(error).toBeNull()
    const providers = new Set(data!.chat.map((m) => m.provider))
    expect([...providers].sort()).toEqual(['anthropic', 'compatible', 'openai'])
    expect(data!.chat).toContainEqual({
      id: 'compatible:llama3.2',
      label: 'llama3.2 (OpenAI-compatible)',
      provider: 'compatible',
    })
    expect(data!.chat.find((m) => m.id.startsWith('anthropic:'))!.label).toMatch(/^Claude/)
    // Anthropic has no embedding models; Google is not configured.
    expect(data!.embedding).toEqual([
      {
        id: 'openai:text-embedding-3-small',
        label: 'OpenAI text-embedding-3-small',
        provider: 'openai',
        dimensions: 1536,
      },
      {
        id: 'openai:text-embedding-3-large',
        label: 'OpenAI text-embedding-3-large',
        provider: 'openai',
        dimensions: 3072,
      },
      {
        id: 'compatible:nomic-embed-text',
        label: 'nomic-embed-text (OpenAI-compatible)',
        provider: 'compatible',
        dimensions: 768,
      },
    ])
    // Only an OpenAI-compatible server's /rerank offers a rerank model.
    expect(data!.rerank).toEqual([
      {
        id: 'compatible:bge-reranker-v2-m3',
        label: 'bge-reranker-v2-m3 (OpenAI-compatible)',
        provider: 'compatible',
      },
    ])
    for (const model of [...data!.chat, ...data!.embedding, ...data!.rerank]) {
      expect(JSON.stringify(model)).not.toContain('test')
    }
  })

  it('allows GET in its CORS preflight, as browsers ask before a cross-origin GET', async () => {
    const preflight = await fetch(`${configured.url}/functions/v1/models`, { method: 'OPTIONS' })
    expect(preflight.status).toBe(200)
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET')
  })

  it('refuses other methods with 405', async () => {
    const response = await fetch(`${configured.url}/functions/v1/models`, {
      method: 'DELETE',
      headers: { apikey: DEFAULT_ANON_KEY, authorization: `Bearer ${DEFAULT_ANON_KEY}` },
    })
    expect(response.status).toBe(405)
    expect(await response.json()).toEqual({
      code: 'method_not_allowed',
      message: 'Use GET or POST',
    })
  })
})
