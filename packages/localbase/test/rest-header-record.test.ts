import { describe, expect, it } from 'vitest'
import { headerRecord } from '../src/rest/header-record.ts'

// request.headers is built from Node's raw header list (rest/header-record.ts); it must be the
// record the request's fetch Headers gave before, entry for entry and in the same order.

/** What handle() wrote before: the fetch Headers of the same raw list, listed. */
function viaHeaders(raw: string[]): Record<string, string> {
  const headers = new Headers()
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!)
  const record: Record<string, string> = {}
  headers.forEach((value, name) => (record[name] = value))
  return record
}

describe('headerRecord', () => {
  it('gives what the fetch Headers of the request gave', () => {
    const raw = [
      'Host',
      '127.0.0.1:54321',
      'User-Agent',
      'node',
      'apikey',
      'sb_publishable_x',
      'Authorization',
      'Bearer a.b.c',
      'X-Client-Info',
      'supabase-js-node/2',
      'Accept',
      'application/json',
      'accept',
      'text/csv',
      'Cookie',
      'a=1',
      'cookie',
      'b=2',
      'Set-Cookie',
      'x=1',
      'set-cookie',
      'y=2',
      'X-Spaced',
      ' \tpadded value\t ',
      'Prefer',
      'count=exact',
      'PREFER',
      'return=representation',
      'x-empty',
      '',
    ]
    const record = headerRecord(raw)
    expect(record).toEqual(viaHeaders(raw))
    // The same order, so the same JSON text in request.headers.
    expect(JSON.stringify(record)).toBe(JSON.stringify(viaHeaders(raw)))
  })

  it('leaves out HTTP/2 pseudo-headers', () => {
    expect(headerRecord([':path', '/rest/v1/notes', 'accept', '*/*'])).toEqual({ accept: '*/*' })
  })
})
