// The error answers of the real services, in each one's own JSON shape, so the SDK parses
// them exactly as it would in production and our error messages are tested for real.
import type { Provider } from './server.ts'

export type Failure =
  | 'unauthorized'
  | 'rate_limit'
  | 'context_length'
  | 'server_error'
  /** The stream starts, then the connection drops half-way. */
  | 'cut_stream'
  /** The request is never answered. */
  | 'hang'

type Answered = Exclude<Failure, 'cut_stream' | 'hang'> | 'bad_json'

const statuses: Record<Answered, number> = {
  unauthorized: 401,
  rate_limit: 429,
  context_length: 400,
  server_error: 500,
  bad_json: 400,
}

/** Google answers a wrong API key with 400 INVALID_ARGUMENT, not 401. */
export function failureStatus(provider: Provider, failure: Answered): number {
  return provider === 'google' && failure === 'unauthorized' ? 400 : statuses[failure]
}

const openai: Record<
  Answered,
  { message: string; type: string; param: string | null; code: string | null }
> = {
  unauthorized: {
    message:
      'Incorrect API key provided: test-***. You can find your API key at https://platform.openai.com/account/api-keys.',
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_api_key',
  },
  rate_limit: {
    message: 'Rate limit reached for requests. Please try again in 1s.',
    type: 'requests',
    param: null,
    code: 'rate_limit_exceeded',
  },
  context_length: {
    message:
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.",
    type: 'invalid_request_error',
    param: 'messages',
    code: 'context_length_exceeded',
  },
  server_error: {
    message: 'The server had an error while processing your request. Sorry about that!',
    type: 'server_error',
    param: null,
    code: null,
  },
  bad_json: {
    message: 'We could not parse the JSON body of your request.',
    type: 'invalid_request_error',
    param: null,
    code: null,
  },
}

const anthropic: Record<Answered, { type: string; message: string }> = {
  unauthorized: { type: 'authentication_error', message: 'invalid x-api-key' },
  rate_limit: {
    type: 'rate_limit_error',
    message: 'Number of request tokens has exceeded your per-minute rate limit.',
  },
  context_length: {
    type: 'invalid_request_error',
    message: 'prompt is too long: 210000 tokens > 200000 maximum',
  },
  server_error: { type: 'api_error', message: 'Internal server error' },
  bad_json: {
    type: 'invalid_request_error',
    message: 'There was an issue with your request body.',
  },
}

const google: Record<Answered, { status: string; message: string; reason?: string }> = {
  unauthorized: {
    status: 'INVALID_ARGUMENT',
    message: 'API key not valid. Please pass a valid API key.',
    reason: 'API_KEY_INVALID',
  },
  rate_limit: {
    status: 'RESOURCE_EXHAUSTED',
    message: 'Resource has been exhausted (e.g. check quota).',
  },
  context_length: {
    status: 'INVALID_ARGUMENT',
    message:
      'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
  },
  server_error: { status: 'INTERNAL', message: 'An internal error has occurred.' },
  bad_json: { status: 'INVALID_ARGUMENT', message: 'Invalid JSON payload received.' },
}

export function errorBody(provider: Provider, failure: Answered): unknown {
  if (provider === 'openai') return { error: openai[failure] }
  if (provider === 'google') {
    const { status, message, reason } = google[failure]
    const details = reason
      ? [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' }]
      : undefined
    return { error: { code: failureStatus(provider, failure), message, status, details } }
  }
  return { type: 'error', error: anthropic[failure] }
}
