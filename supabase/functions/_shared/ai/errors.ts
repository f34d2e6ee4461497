// Provider failures as messages a person can act on, with the status a function answers.
import { APICallError, RetryError } from './deps.ts'
import { ModelUnavailableError } from './providers.ts'

export type ProviderProblem = { status: number; code: string; message: string }

const contextTooLong =
  /context[_ ]length|context window|prompt is too long|too many tokens|exceeds the maximum number of tokens/i

/** Google answers a wrong key with 400 INVALID_ARGUMENT, naming API_KEY_INVALID in its body. */
const keyRefused = (error: APICallError) =>
  error.statusCode === 401 ||
  error.statusCode === 403 ||
  (error.statusCode === 400 && /API_KEY_INVALID/.test(error.responseBody ?? ''))

/** What went wrong with a provider call, for the caller and for the stored message. */
export function providerErrorMessage(err: unknown): ProviderProblem {
  // After the SDK's retries, the last attempt's failure is the one that explains.
  const error = RetryError.isInstance(err) ? err.lastError : err
  if (error instanceof ModelUnavailableError) {
    return { status: 400, code: 'model_unavailable', message: error.message }
  }
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return {
      status: 502,
      code: 'provider_timeout',
      message: 'The AI provider did not answer in time. Try again in a moment.',
    }
  }
  if (APICallError.isInstance(error)) return fromApiCall(error)
  if (error instanceof TypeError) return unreachable(error.message)
  const detail = error instanceof Error ? error.message : String(error)
  return { status: 502, code: 'provider_error', message: `The AI provider failed: ${detail}` }
}

function fromApiCall(error: APICallError): ProviderProblem {
  const status = error.statusCode
  // The provider's own words, without a closing full stop, as they go inside ours.
  const detail = error.message.replace(/\.$/, '')
  if (status === undefined) return unreachable(detail)
  if (keyRefused(error)) {
    return {
      status: 502,
      code: 'provider_auth',
      message: `The AI provider refused its API key (${detail}). Check the key in the functions' environment (supabase/functions/.env).`,
    }
  }
  if (status === 429) {
    return {
      status: 429,
      code: 'provider_rate_limited',
      message: 'The AI provider is rate limiting requests. Wait a minute and try again.',
    }
  }
  if (contextTooLong.test(`${detail} ${error.responseBody ?? ''}`)) {
    return {
      status: 400,
      code: 'context_too_long',
      message:
        'The question and its sources are too long for this model. Ask a shorter question or choose a model with a larger context.',
    }
  }
  if (status >= 500) {
    return {
      status: 502,
      code: 'provider_unavailable',
      message: `The AI provider had an error (${status}). Try again in a moment.`,
    }
  }
  return {
    status: 502,
    code: 'provider_error',
    message: `The AI provider refused the request (${status}): ${detail}`,
  }
}

const unreachable = (detail: string): ProviderProblem => ({
  status: 502,
  code: 'provider_unreachable',
  message: `Could not reach the AI provider (${detail}). Check its base URL and that it is running.`,
})
