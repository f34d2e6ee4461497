// The reply bodies and stream frames of OpenAI's Chat Completions, Anthropic's Messages and
// Google's Gemini generateContent APIs, as their documentation and SDKs describe them.
import { randomUUID } from 'node:crypto'

export type Reply = { model: string; text: string; promptTokens: number }

/** The reply cut in word-sized pieces (each with its trailing space), as tokens arrive. */
export const pieces = (text: string) => text.match(/\s*\S+\s*/g) ?? []

const usageOf = ({ text, promptTokens }: Reply) => ({
  prompt_tokens: promptTokens,
  completion_tokens: pieces(text).length,
  total_tokens: promptTokens + pieces(text).length,
})

const sse = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`
const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`

export function openaiCompletion(reply: Reply) {
  return {
    id: `chatcmpl-${randomUUID()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: reply.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply.text, refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: usageOf(reply),
  }
}

export function openaiStream(reply: Reply & { includeUsage: boolean }): string[] {
  const head = {
    id: `chatcmpl-${randomUUID()}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: reply.model,
    system_fingerprint: null,
  }
  const choice = (delta: Record<string, unknown>, finish: string | null) => ({
    ...head,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  })
  return [
    sse(choice({ role: 'assistant', content: '' }, null)),
    ...pieces(reply.text).map((content) => sse(choice({ content }, null))),
    sse(choice({}, 'stop')),
    ...(reply.includeUsage ? [sse({ ...head, choices: [], usage: usageOf(reply) })] : []),
    'data: [DONE]\n\n',
  ]
}

export function anthropicMessage(reply: Reply) {
  return {
    id: `msg_${randomUUID()}`,
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content: [{ type: 'text', text: reply.text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: reply.promptTokens, output_tokens: pieces(reply.text).length },
  }
}

export function anthropicStream(reply: Reply): string[] {
  const message = {
    ...anthropicMessage(reply),
    content: [],
    stop_reason: null,
    usage: { input_tokens: reply.promptTokens, output_tokens: 1 },
  }
  return [
    event('message_start', { type: 'message_start', message }),
    event('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    }),
    event('ping', { type: 'ping' }),
    ...pieces(reply.text).map((text) =>
      event('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text },
      }),
    ),
    event('content_block_stop', { type: 'content_block_stop', index: 0 }),
    event('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: pieces(reply.text).length },
    }),
    event('message_stop', { type: 'message_stop' }),
  ]
}

const geminiUsage = ({ text, promptTokens }: Reply) => ({
  promptTokenCount: promptTokens,
  candidatesTokenCount: pieces(text).length,
  totalTokenCount: promptTokens + pieces(text).length,
})

export function geminiResponse(reply: Reply) {
  return {
    candidates: [
      { content: { parts: [{ text: reply.text }], role: 'model' }, finishReason: 'STOP', index: 0 },
    ],
    usageMetadata: geminiUsage(reply),
    modelVersion: reply.model,
    responseId: randomUUID(),
  }
}

/** streamGenerateContent with alt=sse: one response object per piece, the last one finished. */
export function geminiStream(reply: Reply): string[] {
  const responseId = randomUUID()
  const all = pieces(reply.text)
  return all.map((text, i) =>
    sse({
      candidates: [
        {
          content: { parts: [{ text }], role: 'model' },
          index: 0,
          ...(i === all.length - 1 ? { finishReason: 'STOP' } : {}),
        },
      ],
      usageMetadata:
        i === all.length - 1 ? geminiUsage(reply) : { promptTokenCount: reply.promptTokens },
      modelVersion: reply.model,
      responseId,
    }),
  )
}
