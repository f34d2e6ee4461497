import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { embedText, lastUserText, promptText, startFakeProvider } from './server.ts'

// The fake provider over plain fetch: the wire formats the AI SDK will parse.
const fake = await startFakeProvider({ apiKey: 'test', retryAfterSeconds: 2 })
afterAll(() => fake.close())
beforeEach(() => fake.reset())

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer test', ...headers },
    body: JSON.stringify(body),
  })

/** The `data:` payloads of an SSE body, with their event names when there are any. */
async function frames(response: Response) {
  const text = await response.text()
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => {
      const name = /^event: (.*)$/m.exec(frame)?.[1]
      const data = /^data: (.*)$/m.exec(frame)![1]!
      return { name, data: data === '[DONE]' ? data : (JSON.parse(data) as unknown) }
    })
}

const chat = { model: 'gpt-test', messages: [{ role: 'user', content: 'Why do ferns curl?' }] }

describe('OpenAI chat completions', () => {
  it('answers without streaming, with usage', async () => {
    const response = await post('/v1/chat/completions', chat)
    expect(response.status).toBe(200)
    const body = (await response.json()) as { choices: { message: { content: string } }[] }
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-test',
      choices: [{ message: { role: 'assistant' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 4 },
    })
    expect(body.choices[0]!.message.content).toBe(
      'The sources say this about Why do ferns curl? [1].',
    )
    expect(fake.requests).toHaveLength(1)
    expect(lastUserText(fake.requests[0]!)).toBe('Why do ferns curl?')
  })

  it('streams chunks that join to the reply, then usage, then [DONE]', async () => {
    fake.script({ reply: 'Ferns curl [1] to protect their tips.' })
    const response = await post('/v1/chat/completions', {
      ...chat,
      stream: true,
      stream_options: { include_usage: true },
    })
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const all = await frames(response)
    expect(all.at(-1)!.data).toBe('[DONE]')
    type Chunk = { choices: { delta: { content?: string }; finish_reason: string | null }[] }
    const chunks = all.slice(0, -1).map((f) => f.data as Chunk)
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')
    expect(text).toBe('Ferns curl [1] to protect their tips.')
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop')
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: 7 } })
  })

  it('answers a wrong key, a rate limit and a too long prompt as OpenAI does', async () => {
    const wrongKey = await post('/v1/chat/completions', chat, { authorization: 'Bearer nope' })
    expect(wrongKey.status).toBe(401)
    expect(await wrongKey.json()).toMatchObject({ error: { code: 'invalid_api_key' } })

    fake.script({ fail: 'rate_limit' }, { fail: 'context_length' })
    const limited = await post('/v1/chat/completions', chat)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('2')
    expect(await limited.json()).toMatchObject({ error: { code: 'rate_limit_exceeded' } })
    const long = await post('/v1/chat/completions', chat)
    expect(long.status).toBe(400)
    expect(await long.json()).toMatchObject({ error: { code: 'context_length_exceeded' } })
    expect((await post('/v1/chat/completions', chat)).status).toBe(200)
  })

  it('drops a stream half-way and never answers a hung request', async () => {
    fake.script({ fail: 'cut_stream', reply: 'one two three four five six seven eight' })
    const cut = await post('/v1/chat/completions', { ...chat, stream: true })
    await expect(cut.text()).rejects.toThrow()

    fake.script({ fail: 'hang' })
    const hung = post('/v1/chat/completions', chat).catch(() => 'dropped')
    const winner = await Promise.race([
      hung.then(() => 'answered'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 200)),
    ])
    expect(winner).toBe('still waiting')
  })
})

describe('OpenAI embeddings', () => {
  it('returns one normalised vector per input, of the asked or known dimension', async () => {
    const response = await post('/v1/embeddings', {
      model: 'text-embedding-3-small',
      input: ['pressed ferns', 'pressed fern', 'storms at sea'],
      encoding_format: 'float',
    })
    const body = (await response.json()) as { data: { index: number; embedding: number[] }[] }
    expect(body.data.map((d) => d.index)).toEqual([0, 1, 2])
    const [a, b, c] = body.data.map((d) => d.embedding)
    expect(a).toHaveLength(1536)
    expect(a).toEqual(embedText('pressed ferns', 1536))
    const dot = (x: number[], y: number[]) => x.reduce((sum, v, i) => sum + v * y[i]!, 0)
    expect(dot(a!, a!)).toBeCloseTo(1)
    expect(dot(a!, b!)).toBeCloseTo(1)
    expect(dot(a!, c!)).toBeLessThan(0.5)

    const small = await post('/v1/embeddings', { model: 'x', input: 'hi', dimensions: 8 })
    const smallBody = (await small.json()) as { data: { embedding: number[] }[] }
    expect(smallBody.data[0]!.embedding).toHaveLength(8)
  })
})

describe('Anthropic messages', () => {
  const message = {
    model: 'claude-test',
    max_tokens: 100,
    system: 'Answer from the sources.',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Why do ferns curl?' }] }],
  }
  const headers = { authorization: '', 'x-api-key': 'test', 'anthropic-version': '2023-06-01' }

  it('streams the event sequence of the Messages API', async () => {
    fake.script({ reply: 'Because [1].' })
    const response = await post('/v1/messages', { ...message, stream: true }, headers)
    const all = await frames(response)
    expect(all.map((f) => f.name)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ])
    const text = all
      .filter((f) => f.name === 'content_block_delta')
      .map((f) => (f.data as { delta: { text: string } }).delta.text)
      .join('')
    expect(text).toBe('Because [1].')
    expect(promptText(fake.requests[0]!)).toBe('Answer from the sources.\n\nWhy do ferns curl?')
  })

  it('answers a wrong key and a rate limit in Anthropic’s error shape', async () => {
    const wrong = await post('/v1/messages', message, { ...headers, 'x-api-key': 'nope' })
    expect(wrong.status).toBe(401)
    expect(await wrong.json()).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key' },
    })
    fake.script({ provider: 'anthropic', fail: 'rate_limit' })
    const limited = await post('/v1/messages', message, headers)
    expect(limited.status).toBe(429)
    expect(await limited.json()).toMatchObject({ error: { type: 'rate_limit_error' } })
  })
})

describe('Google Gemini', () => {
  const request = {
    systemInstruction: { parts: [{ text: 'Answer from the sources.' }] },
    contents: [{ role: 'user', parts: [{ text: 'Why do ferns curl?' }] }],
    generationConfig: { maxOutputTokens: 100 },
  }
  const headers = { authorization: '', 'x-goog-api-key': 'test' }
  const model = '/v1beta/models/gemini-test'

  it('answers generateContent with the model named in the path', async () => {
    fake.script({ reply: 'Because [1].' })
    const response = await post(`${model}:generateContent`, request, headers)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      candidates: [{ content: { parts: [{ text: 'Because [1].' }], role: 'model' } }],
      usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 2 },
      modelVersion: 'gemini-test',
    })
    expect(fake.requests[0]).toMatchObject({ provider: 'google', kind: 'chat' })
    expect(promptText(fake.requests[0]!)).toBe('Answer from the sources.\n\nWhy do ferns curl?')
    expect(lastUserText(fake.requests[0]!)).toBe('Why do ferns curl?')
  })

  it('streams response objects over SSE, the last one finished with usage', async () => {
    fake.script({ reply: 'Ferns curl [1] to protect their tips.' })
    const response = await post(`${model}:streamGenerateContent?alt=sse`, request, headers)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    type Chunk = {
      candidates: { content: { parts: { text: string }[] }; finishReason?: string }[]
      usageMetadata: { candidatesTokenCount?: number }
    }
    const chunks = (await frames(response)).map((f) => f.data as Chunk)
    expect(chunks.map((c) => c.candidates[0]!.content.parts[0]!.text).join('')).toBe(
      'Ferns curl [1] to protect their tips.',
    )
    expect(chunks.slice(0, -1).every((c) => c.candidates[0]!.finishReason === undefined)).toBe(true)
    expect(chunks.at(-1)).toMatchObject({
      candidates: [{ finishReason: 'STOP' }],
      usageMetadata: { candidatesTokenCount: 7 },
    })
  })

  it('embeds one content or a batch, at the asked or known dimension', async () => {
    const one = await post(
      `/v1beta/models/gemini-embedding-001:embedContent`,
      { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'pressed ferns' }] } },
      headers,
    )
    expect(((await one.json()) as { embedding: { values: number[] } }).embedding.values).toEqual(
      embedText('pressed ferns', 3072),
    )
    const batch = await post(
      `/v1beta/models/gemini-embedding-001:batchEmbedContents`,
      {
        requests: ['pressed ferns', 'storms at sea'].map((text) => ({
          model: 'models/gemini-embedding-001',
          content: { role: 'user', parts: [{ text }] },
          outputDimensionality: 8,
        })),
      },
      headers,
    )
    const { embeddings } = (await batch.json()) as { embeddings: { values: number[] }[] }
    expect(embeddings.map((e) => e.values)).toEqual([
      embedText('pressed ferns', 8),
      embedText('storms at sea', 8),
    ])
  })

  it('answers a wrong key as Google does (400 INVALID_ARGUMENT), and a quota with 429', async () => {
    const wrong = await post(`${model}:generateContent`, request, { 'x-goog-api-key': 'nope' })
    expect(wrong.status).toBe(400)
    expect(await wrong.json()).toMatchObject({
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message: 'API key not valid. Please pass a valid API key.',
        details: [{ reason: 'API_KEY_INVALID' }],
      },
    })
    fake.script({ provider: 'google', fail: 'rate_limit' })
    const limited = await post(`${model}:generateContent`, request, headers)
    expect(limited.status).toBe(429)
    expect(await limited.json()).toMatchObject({ error: { status: 'RESOURCE_EXHAUSTED' } })
  })
})
