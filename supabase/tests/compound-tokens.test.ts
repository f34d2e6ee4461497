import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, startStack } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// Tokens Postgres's parser keeps whole are indexed by their parts as well, in chunks and in
// queries (20260101002500_compound_tokens.sql).
const stack = await startStack()
afterAll(() => stack.stop())

let people: People
let workspaceId: string
beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
})

/** The lexemes of a text with how often each occurs, as chunks and queries get them. */
async function lexemes(text: string): Promise<Record<string, number>> {
  const { rows } = await stack.db.pg.query<{ lexeme: string; n: number }>(
    'select t.lexeme, cardinality(t.positions) as n from unnest(public.bm25_lexemes($1)) t',
    [text],
  )
  return Object.fromEntries(rows.map((r) => [r.lexeme, r.n]))
}

describe('each token type the parser keeps whole', () => {
  it.each([
    ['host', 'Amazon.com', ['amazon.com', 'amazon', 'com']],
    [
      'host (a file name)',
      'JOHNSON_JOHNSON_2023Q2.pdf',
      ['johnson_johnson_2023q2.pdf', 'johnson', '2023', 'pdf'],
    ],
    ['email', 'relations@its.jnj.com', ['relations@its.jnj.com', 'relat', 'jnj', 'com']],
    ['file (slashed words)', 'Europe/Middle', ['europe/middle', 'europ', 'middl']],
    ['file (a date)', '12/31/2019', ['12/31/2019', '12', '31', '2019']],
    ['file (a path)', '/usr/local/bin', ['/usr/local/bin', 'usr', 'local', 'bin']],
    [
      'url, host and url_path',
      'www.amcor.com/investors',
      ['www.amcor.com/investors', 'www.amcor.com', '/investors', 'www', 'amcor', 'com', 'investor'],
    ],
    ['numword', 'FY2019', ['fy2019', '2019']],
    ['numword (digits first)', '2023Q2', ['2023q2', '2023']],
    ['camel case', 'PlayStation', ['playstat', 'play', 'station']],
    ['camel case after capitals', 'JPMorgan', ['jpmorgan', 'morgan']],
  ])('%s: %s is indexed whole and by its parts', async (_type, token, expected) => {
    expect(Object.keys(await lexemes(token)).sort()).toEqual([...expected].sort())
  })

  it('counts a part as often as its compound occurs', async () => {
    const counts = await lexemes('Amazon.com and Amazon.com again, and amazon')
    expect(counts).toMatchObject({ 'amazon.com': 2, amazon: 3, com: 2 })
  })

  it('leaves out parts of one or two letters and single digits: the whole keeps them', async () => {
    expect(await lexemes('U.S. Q2 iPhone J.P.')).toEqual({
      'u.s': 1,
      q2: 1,
      iphon: 1,
      phone: 1,
      'j.p': 1,
    })
  })

  it('leaves plain words, hyphenated words and numbers with points as they were', async () => {
    expect(await lexemes('Harbour dues rose')).toEqual({ harbour: 1, due: 1, rose: 1 })
    expect(await lexemes('COVID-19')).toEqual({ covid: 1, '19': 1 })
    // A table's decimals and a version number stay whole.
    expect(await lexemes('3.5 +0.50 1.2.3 1,250')).toEqual({
      '3.5': 1,
      '+0.50': 1,
      '1.2.3': 1,
      '1': 1,
      '250': 1,
    })
  })
})

describe('search', () => {
  const titles = async (query: string) => {
    const { data, error } = await clientFor(stack, people.viewer).rpc('search_chunks', {
      workspace_id: workspaceId,
      query,
    })
    if (error) throw error
    return (data as { title: string }[]).map((r) => r.title)
  }

  beforeAll(async () => {
    const add = (title: string, text: string) =>
      addReadyDocument(stack, people.editor, workspaceId, title, [text])
    await add('Store', 'Orders placed on Amazon.com ship within two days.')
    await add('Founder', 'Amazon began as a bookshop in a garage.')
    await add('Annual report', 'Revenue for fiscal 2019 rose by a tenth.')
    await add('Balance sheet', 'Cash as of 12/31/2018 was lower than a year before.')
    await add('Regions', 'Sales in Europe/Middle East/Africa grew fastest.')
    await add('Consoles', 'PlayStation sales doubled over the holidays.')
  })

  it('finds a document by the parts of its compound tokens', async () => {
    expect(await titles('Amazon')).toEqual(expect.arrayContaining(['Store', 'Founder']))
    expect(await titles('2018')).toEqual(['Balance sheet'])
    expect(await titles('Europe')).toEqual(['Regions'])
    expect(await titles('play station')).toEqual(['Consoles'])
  })

  it("finds a document by the parts of a query's compound tokens", async () => {
    expect(await titles('FY2019 revenue')).toEqual(['Annual report'])
    expect(await titles('Q4 2018/12/31')).toEqual(['Balance sheet'])
  })

  it('ranks the whole compound above its parts alone', async () => {
    expect(await titles('amazon.com')).toEqual(['Store', 'Founder'])
  })
})
