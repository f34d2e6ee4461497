import {
  AuthApiError,
  AuthRetryableFetchError,
  FunctionsFetchError,
  FunctionsHttpError,
} from '@supabase/supabase-js'
import { describe, expect, it } from 'vitest'
import {
  CONNECTION_LOST,
  SERVER_TOO_SLOW,
  SERVER_UNAVAILABLE,
  errorMessage,
  isConnectionProblem,
} from './errors'

describe('errorMessage', () => {
  it('says the connection was lost for every shape a failed fetch takes', () => {
    const failures: unknown[] = [
      new TypeError('Failed to fetch'),
      new TypeError('NetworkError when attempting to fetch resource.'),
      new TypeError('Load failed'),
      new FunctionsFetchError(new TypeError('Failed to fetch')),
      new AuthRetryableFetchError('Failed to fetch', 0),
      // PostgREST's error object when its fetch threw.
      { message: 'TypeError: Failed to fetch', details: 'TypeError: Failed to fetch', code: '' },
      // The ingest pipeline wraps the cause in its own sentence.
      new Error('the duplicate check failed: TypeError: Failed to fetch'),
      'the duplicate check failed: TypeError: Failed to fetch',
      // A TUS chunk cut off mid-upload.
      new Error(
        'the upload failed: tus: failed to upload chunk at offset 0, caused by [object ProgressEvent], originated from request (method: PATCH, url: http://x, response code: n/a, response text: n/a, request id: n/a)',
      ),
      new DOMException('The user aborted a request.', 'AbortError'),
    ]
    for (const failure of failures) {
      expect(errorMessage(failure), String(failure)).toBe(CONNECTION_LOST)
      expect(isConnectionProblem(failure)).toBe(true)
    }
  })

  it('says the server is unavailable for a 5xx, and too slow for a timeout', () => {
    expect(errorMessage({ status: 503, message: 'Service Unavailable' })).toBe(SERVER_UNAVAILABLE)
    expect(errorMessage(new AuthRetryableFetchError('Bad Gateway', 502))).toBe(SERVER_UNAVAILABLE)
    expect(errorMessage({ statusCode: '500', message: 'boom' })).toBe(SERVER_UNAVAILABLE)
    expect(errorMessage(new Error('Internal Server Error'))).toBe(SERVER_UNAVAILABLE)
    expect(errorMessage(new DOMException('signal timed out', 'TimeoutError'))).toBe(SERVER_TOO_SLOW)
  })

  it("keeps the server's own reason for a request it refused", () => {
    const refused = new AuthApiError('Invalid login credentials', 400, 'invalid_credentials')
    expect(errorMessage(refused)).toBe('Invalid login credentials')
    expect(isConnectionProblem(refused)).toBe(false)
    expect(errorMessage({ message: 'duplicate key value', code: '23505' })).toBe(
      'duplicate key value',
    )
    expect(isConnectionProblem(new FunctionsHttpError(new Response('', { status: 429 })))).toBe(
      false,
    )
    expect(errorMessage('"a.png": .png files are not supported.')).toBe(
      '"a.png": .png files are not supported.',
    )
  })

  it('never shows a raw exception', () => {
    expect(errorMessage(new TypeError('Cannot read properties of undefined'))).toBe(
      'Something went wrong. Please try again.',
    )
    expect(errorMessage(undefined, 'Nothing loaded.')).toBe('Nothing loaded.')
    expect(errorMessage({ message: '' })).toBe('Something went wrong. Please try again.')
  })
})
