// A fake AI provider for tests: a real HTTP server speaking OpenAI's, Anthropic's and Google's
// (Gemini) wire formats (and the `/rerank` of OpenAI-compatible rerank servers), so the real AI SDK inside
// the real Edge Functions is exercised end to end and only the provider's HTTP boundary is
// replaced. Every request is recorded for assertions.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { embedText } from './embedding.ts'
import { errorBody, type Failure, failureStatus } from './failures.ts'
import { rerankAnswer } from './rerank.ts'
import {
  anthropicMessage,
  anthropicStream,
  geminiResponse,
  geminiStream,
  openaiCompletion,
  openaiStream,
} from './wire.ts'

export type { Failure } from './failures.ts'
export { embedText } from './embedding.ts'

export type Provider = 'openai' | 'anthropic' | 'google'
export type Kind = 'chat' | 'embeddings' | 'rerank'

export type RecordedRequest = {
  provider: Provider
  kind: Kind
  path: string
  headers: Record<string, string | string[] | undefined>
  body: Record<string, unknown>
}

/**
 * A scripted behaviour for the next `times` requests (default 1) matching `kind` and
 * `provider`. A step without `fail` answers normally: `{ kind: 'embeddings' }` lets one
 * request through before a failure scripted after it.
 */
export type Step = {
  kind?: Kind
  provider?: Provider
  times?: number
  /** The reply text for chat requests. */
  reply?: string | ((request: RecordedRequest) => string)
  /** For rerank requests: the documents' 0-based indices, best first. */
  ranking?: number[]
  /** For rerank requests: this body instead of a ranking (a malformed answer). */
  body?: unknown
  fail?: Failure
  /** Runs before the answer: what happens meanwhile (a model promoted while a query embeds). */
  before?: () => Promise<void>
}

export type FakeProviderOptions = {
  /** The default reply for chat requests; default: a short answer citing [1]. */
  reply?: (request: RecordedRequest) => string
  /** Force every embedding to this dimension; default: body.dimensions, the model's, or 64. */
  dimensions?: number
  /** When set, any other key is answered 401, as the real services do. */
  apiKey?: string
  /**
   * Embedding inputs longer than this many tokens are refused as too long, as a small local
   * model's server refuses them (the whole request fails); default: no limit.
   */
  maxInputTokens?: number
  /** No pause between streamed chunks (benchmarks); default: a few ms each. */
  instant?: boolean
  /** The retry-after header of 429 answers, in seconds. */
  retryAfterSeconds?: number
}

export type FakeProvider = {
  url: string
  requests: RecordedRequest[]
  script(...steps: Step[]): void
  /** Forgets the recorded requests and any unused scripted steps. */
  reset(): void
  close(): Promise<void>
}

type Message = { role: string; content: unknown }

/** The conversation, whatever the provider's shape (Gemini's `contents` hold `parts`). */
function messagesOf(body: Record<string, unknown>): Message[] {
  if (Array.isArray(body.contents)) {
    return (body.contents as { role: string; parts: unknown }[]).map((c) => ({
      role: c.role,
      content: c.parts,
    }))
  }
  return (body.messages ?? []) as Message[]
}

/** The text of the last user message, whatever the provider's message shape. */
export function lastUserText(request: RecordedRequest): string {
  const user = messagesOf(request.body)
    .filter((m) => m.role === 'user')
    .at(-1)
  return user ? contentText(user.content) : ''
}

/** Everything the model was told (system prompt and every message), as one text. */
export function promptText(request: RecordedRequest): string {
  const { system, systemInstruction } = request.body as {
    system?: unknown
    systemInstruction?: { parts: unknown }
  }
  const instructions = system ?? systemInstruction?.parts
  const told = instructions === undefined ? [] : [contentText(instructions)]
  return [...told, ...messagesOf(request.body).map((m) => contentText(m.content))].join('\n\n')
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : ''))
    .join('')
}

const defaultReply = (request: RecordedRequest) => {
  const question = lastUserText(request).split('\n')[0]!.split(/\s+/).slice(0, 30).join(' ')
  return `The sources say this about ${question.trim() || 'the question'} [1].`
}

const knownDimensions: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
  'gemini-embedding-001': 3072,
}

export async function startFakeProvider(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  const requests: RecordedRequest[] = []
  let steps: Step[] = []
  const sockets = new Set<Socket>()

  const takeStep = (request: RecordedRequest): Step | undefined => {
    const index = steps.findIndex(
      (s) =>
        (!s.kind || s.kind === request.kind) && (!s.provider || s.provider === request.provider),
    )
    if (index < 0) return undefined
    const step = steps[index]!
    const times = (step.times ?? 1) - 1
    if (times <= 0) steps.splice(index, 1)
    else steps[index] = { ...step, times }
    return step
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!
    const route = routeOf(req.method, path)
    if (!route) return send(res, 404, { error: { message: `No route ${req.method} ${path}` } })
    let body: Record<string, unknown>
    try {
      body = JSON.parse(await readBody(req)) as Record<string, unknown>
    } catch {
      return send(res, 400, errorBody(route.provider, 'bad_json'))
    }
    const { provider, kind } = route
    const request: RecordedRequest = { provider, kind, path, headers: req.headers, body }
    requests.push(request)
    const step = takeStep(request)
    await step?.before?.()
    const fail = step?.fail ?? (keyIsWrong(req, route.provider) ? 'unauthorized' : undefined)
    if (fail === 'hang') return
    if (fail && fail !== 'cut_stream') {
      const headers: Record<string, string> =
        fail === 'rate_limit' ? { 'retry-after': String(options.retryAfterSeconds ?? 1) } : {}
      return send(res, failureStatus(provider, fail), errorBody(provider, fail), headers)
    }
    if (route.kind === 'embeddings') {
      const limit = options.maxInputTokens ?? Infinity
      if (embeddingInputs(body).some((text) => countTokens(text) > limit)) {
        return send(res, 400, errorBody(provider, 'context_length'))
      }
      return send(res, 200, provider === 'google' ? geminiEmbeddings(body) : embeddings(body))
    }
    if (route.kind === 'rerank')
      return send(res, 200, step?.body ?? rerankAnswer(body, step?.ranking))
    const text = replyText(step, request)
    const model = route.model ?? String(body.model ?? 'fake-model')
    const promptTokens = countTokens(promptText(request))
    const cut = fail === 'cut_stream'
    if (!(route.stream ?? body.stream === true)) {
      const answer = {
        openai: openaiCompletion,
        anthropic: anthropicMessage,
        google: geminiResponse,
      }
      return send(res, 200, answer[provider]({ model, text, promptTokens }))
    }
    const frames =
      provider === 'openai'
        ? openaiStream({ model, text, promptTokens, includeUsage: includeUsage(body) })
        : provider === 'anthropic'
          ? anthropicStream({ model, text, promptTokens })
          : geminiStream({ model, text, promptTokens })
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const stopAt = cut ? Math.max(1, Math.floor(frames.length / 2)) : frames.length
    for (const frame of frames.slice(0, stopAt)) {
      if (res.destroyed) return
      res.write(frame)
      if (!options.instant) await new Promise((resolve) => setTimeout(resolve, 3))
    }
    if (cut) res.destroy()
    else res.end()
  }

  const keyIsWrong = (req: IncomingMessage, provider: Provider) => {
    if (options.apiKey === undefined) return false
    const given =
      provider === 'anthropic'
        ? req.headers['x-api-key']
        : provider === 'google'
          ? req.headers['x-goog-api-key']
          : req.headers.authorization?.replace(/^Bearer /, '')
    return given !== options.apiKey
  }

  const replyText = (step: Step | undefined, request: RecordedRequest) => {
    const reply = step?.reply ?? options.reply ?? defaultReply
    return typeof reply === 'string' ? reply : reply(request)
  }

  const dimensionsFor = (model: string, asked: unknown) =>
    options.dimensions ?? (typeof asked === 'number' ? asked : knownDimensions[model]) ?? 64

  const embeddings = (body: Record<string, unknown>) => {
    const inputs = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)]
    const model = String(body.model ?? 'fake-embedding')
    const dimensions = dimensionsFor(model, body.dimensions)
    const tokens = inputs.reduce((sum, text) => sum + countTokens(text), 0)
    return {
      object: 'list',
      data: inputs.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: embedText(text, dimensions),
      })),
      model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    }
  }

  /** embedContent (one `content`) or batchEmbedContents (`requests`, each with its model). */
  const geminiEmbeddings = (body: Record<string, unknown>) => {
    type Request = { model: string; content: { parts: unknown }; outputDimensionality?: number }
    const vector = (r: Request) => ({
      values: embedText(
        contentText(r.content.parts),
        dimensionsFor(r.model.replace(/^models\//, ''), r.outputDimensionality),
      ),
    })
    if (Array.isArray(body.requests))
      return { embeddings: (body.requests as Request[]).map(vector) }
    return { embedding: vector(body as Request) }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { message: String(error) } })
      else res.destroy()
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...more) => {
      steps.push(...more)
    },
    reset: () => {
      requests.length = 0
      steps = []
    },
    close: () => {
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

type Route = { provider: Provider; kind: Kind; model?: string; stream?: boolean }

/** The texts of an embedding request, in OpenAI's or Gemini's shape. */
function embeddingInputs(body: Record<string, unknown>): string[] {
  type Content = { content: { parts: unknown } }
  if (Array.isArray(body.requests)) {
    return (body.requests as Content[]).map((r) => contentText(r.content.parts))
  }
  if (body.content) return [contentText((body as Content).content.parts)]
  return Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)]
}

function routeOf(method: string | undefined, path: string): Route | null {
  if (method !== 'POST') return null
  // Gemini names the model and the call in the path: /v1beta/models/{model}:{method}.
  const gemini = /^\/v1beta\/models\/([^/:]+):(\w+)$/.exec(path)
  if (gemini) {
    const [, model, call] = gemini as unknown as [string, string, string]
    if (call === 'generateContent')
      return { provider: 'google', kind: 'chat', model, stream: false }
    if (call === 'streamGenerateContent') {
      return { provider: 'google', kind: 'chat', model, stream: true }
    }
    if (call === 'embedContent' || call === 'batchEmbedContents') {
      return { provider: 'google', kind: 'embeddings', model }
    }
    return null
  }
  const routes: Record<string, { provider: Provider; kind: Kind }> = {
    '/v1/chat/completions': { provider: 'openai', kind: 'chat' },
    '/v1/embeddings': { provider: 'openai', kind: 'embeddings' },
    // OpenAI-compatible rerank servers (vLLM, Jina, llama.cpp) answer here.
    '/v1/rerank': { provider: 'openai', kind: 'rerank' },
    '/v1/messages': { provider: 'anthropic', kind: 'chat' },
  }
  return routes[path] ?? null
}

const includeUsage = (body: Record<string, unknown>) =>
  (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true

/** A rough token count (words), enough for usage numbers that move with the input. */
const countTokens = (text: string) => text.split(/\s+/).filter(Boolean).length

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = []
    req.on('data', (part: Buffer) => parts.push(part))
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')))
    req.on('error', reject)
  })
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}
