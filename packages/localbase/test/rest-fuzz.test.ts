import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY, DEFAULT_SERVICE_ROLE_KEY } from '../src/config/keys.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// Thousands of random and mutated PostgREST requests (seeded, so failures repeat):
// whatever comes in, the answer is never a 5xx and the server keeps answering.

let stack: TestStack
beforeAll(async () => {
  stack = await startTestStack('rest')
})
afterAll(() => stack?.stop())

function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const random = prng(Number(process.env.REST_FUZZ_SEED ?? 20240101))
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
const maybe = (p: number) => random() < p

const paths =
  'users messages channels tags kinds notes best_friends active_users message_tags nope rpc/add rpc/numbers rpc/channel_messages rpc/echo rpc/pick rpc/noop rpc/nope rpc/fail rpc/tagged  a/b/c rpc %ZZ users/1'.split(
    ' ',
  )
const columns =
  'id username status data data->a->>b age_range catchphrase arr rng doc big num ts message name slug nope "quoted" *  a-> ('.split(
    ' ',
  )
const ops =
  'eq neq gt gte lt lte like ilike match imatch in is isdistinct fts plfts phfts wfts cs cd ov sl sr nxr nxl adj not.eq eq(any) like(all) fts(english) fts(nope) bogus '.split(
    ' ',
  )
const values =
  '1|-1|abc||null|true|(1,2)|(a,"b,c")|{1,2}|{"a":1}|[1,5)|it\'s|%|*|\\|"|(|)|9999999999999999999999|1e400|2024-01-01|💥|\'; drop table users; --'.split(
    '|',
  )
const embeds =
  'users messages channels tags channel_details best_friends nope users!inner users!best_friends_first_user_fkey messages!inner users!nope'.split(
    ' ',
  )

function selectList(depth = 0): string {
  const items: string[] = []
  const n = 1 + Math.floor(random() * 3)
  for (let i = 0; i < n; i++) {
    if (depth < 2 && maybe(0.3))
      items.push(`${maybe(0.2) ? '...' : ''}${pick(embeds)}(${selectList(depth + 1)})`)
    else if (maybe(0.1)) items.push('count()')
    else
      items.push(
        `${maybe(0.2) ? 'x:' : ''}${pick(columns)}${maybe(0.15) ? `::${pick(['text', 'int', 'nope', 'int[]'])}` : ''}`,
      )
  }
  return items.join(',')
}

function filter(): string {
  return `${pick(columns)}.${pick(ops)}.${pick(values)}`
}

function queryString(): string {
  const params = new URLSearchParams()
  if (maybe(0.7)) params.set('select', selectList())
  const n = Math.floor(random() * 4)
  for (let i = 0; i < n; i++) {
    const kind = random()
    if (kind < 0.5) params.append(pick(columns), `${pick(ops)}.${pick(values)}`)
    else if (kind < 0.65)
      params.append(
        pick(['or', 'and', 'not.or', 'users.or']),
        `(${filter()},${maybe(0.5) ? `and(${filter()},${filter()})` : filter()})`,
      )
    else if (kind < 0.8)
      params.append(
        `${maybe(0.3) ? `${pick(embeds)}.` : ''}order`,
        `${pick(columns)}${pick(['', '.asc', '.desc', '.desc.nullslast', '.sideways'])}`,
      )
    else if (kind < 0.9)
      params.append(
        pick(['limit', 'offset', 'messages.limit']),
        pick(['0', '1', '5', '-1', 'x', '100000']),
      )
    else params.append(pick(['on_conflict', 'columns', 'a', 'n', 'tags', 'channel']), pick(values))
  }
  return params.toString()
}

function mutate(text: string): string {
  const chars = [...text]
  const edits = 1 + Math.floor(random() * 3)
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(random() * (chars.length + 1))
    const ch = pick([
      '(',
      ')',
      ',',
      '.',
      '"',
      ':',
      '!',
      '-',
      '>',
      '*',
      '%',
      '&',
      '=',
      '{',
      '}',
      '\\',
      ' ',
    ])
    const edit = random()
    if (edit < 0.4) chars.splice(at, 0, ch)
    else if (edit < 0.7) chars.splice(at, 1)
    else chars[at] = ch
  }
  return chars.join('')
}

function body(): string | undefined {
  const objects = [
    { id: Math.floor(random() * 1000), name: 'fuzz' },
    { username: 'fuzz', status: pick(values) },
    { a: 1, b: 2 },
    { n: 3 },
    { nope: 1 },
    {},
    { id: 'not a number' },
    { arr: [1, [2]], doc: { deep: [null] } },
  ]
  const kind = random()
  if (kind < 0.15) return undefined
  if (kind < 0.5) return JSON.stringify(pick(objects))
  if (kind < 0.7) return JSON.stringify([pick(objects), pick(objects)])
  if (kind < 0.85) return mutate(JSON.stringify(pick(objects)))
  return pick(['', 'null', '1', '"text"', '[]', '[1,2]', '{"a":', 'garbage'])
}

function headers(): Record<string, string> {
  const h: Record<string, string> = { apikey: DEFAULT_ANON_KEY }
  if (maybe(0.3))
    h.authorization = `Bearer ${pick([DEFAULT_SERVICE_ROLE_KEY, DEFAULT_ANON_KEY, 'garbage', 'a.b.c', ''])}`
  if (maybe(0.4))
    h.prefer = pick([
      'return=representation',
      'count=exact',
      'return=minimal, count=planned',
      'resolution=merge-duplicates',
      'resolution=ignore-duplicates,return=representation',
      'missing=default',
      'tx=rollback',
      'handling=strict, max-affected=0',
      'return=headers-only',
      'nonsense',
    ])
  if (maybe(0.25))
    h.accept = pick([
      'application/vnd.pgrst.object+json',
      'text/csv',
      'application/json;nulls=stripped',
      'text/xml',
      '*/*',
      '',
    ])
  if (maybe(0.1)) h.range = pick(['0-1', '5-2', 'x', '1-', '0-999999999999'])
  if (maybe(0.1))
    h[pick(['accept-profile', 'content-profile'])] = pick([
      'public',
      'personal',
      'auth',
      '',
      'nope',
    ])
  if (maybe(0.3)) h['content-type'] = pick(['application/json', 'text/plain', 'text/csv'])
  return h
}

it('answers 2,500 random and mutated requests without a 5xx, then still serves /health', async () => {
  const requests = Array.from({ length: 2500 }, () => {
    const method = pick(['GET', 'GET', 'HEAD', 'POST', 'POST', 'PATCH', 'DELETE', 'PUT'])
    let path = `${pick(paths)}?${queryString()}`
    if (maybe(0.35)) path = mutate(path)
    const withBody = method !== 'GET' && method !== 'HEAD'
    return { method, path, headers: headers(), body: withBody ? body() : undefined }
  })
  const failures: string[] = []
  let next = 0
  const worker = async () => {
    while (next < requests.length) {
      const r = requests[next++]
      if (!r) break
      let status: number
      try {
        const res = await fetch(`${stack.url}/rest/v1/${r.path}`, r)
        status = res.status
        const text = await res.text()
        if (status >= 500)
          failures.push(`${r.method} ${r.path} ${r.headers.prefer} ${r.body} → ${status} ${text}`)
      } catch (error) {
        if (error instanceof TypeError && /URL|Invalid/i.test(String(error.message))) continue
        failures.push(`${r.method} ${r.path} → ${String(error)}`)
      }
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker))
  expect(failures.slice(0, 10)).toEqual([])
  const health = await fetch(`${stack.url}/health`)
  expect(health.status).toBe(200)
  const { data } = await stack.client().from('channels').select('slug').eq('id', 1)
  expect(data).toEqual([{ slug: 'public' }])
}, 120_000)
