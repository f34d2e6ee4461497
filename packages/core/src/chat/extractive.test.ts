import { describe, expect, it } from 'vitest'
import { checkCitations } from './citations.ts'
import { source } from './test-sources.ts'
import { closestPassages, extractiveAnswer } from './extractive.ts'
import { NO_ANSWER } from './no-answer.ts'

const sources = [
  source(
    1,
    'Herbarium methods. Mangrove samples from the estuary were dried slowly to keep their leaves intact. ' +
      'Ferns were pressed on card. Mangrove leaves curl when they are dried too fast.',
  ),
  source(
    2,
    'The voyage log records storms [3] near the estuary. Mangrove roots were photographed at low tide.',
  ),
  source(3, 'Mangrove samples from the estuary were dried slowly to keep their leaves intact!'),
]

describe('extractiveAnswer', () => {
  it('cites the best-matching sentences in passage then reading order, without duplicates', () => {
    const answer = extractiveAnswer('How were the mangrove samples dried?', sources)
    expect(answer).toBe(
      'Mangrove samples from the estuary were dried slowly to keep their leaves intact [1]. ' +
        'Mangrove leaves curl when they are dried too fast [1].',
    )
  })

  it('draws on every passage chat is given, the eighth too', () => {
    const given = [1, 2, 3, 4, 5, 6, 7].map((n) =>
      source(n, `Ferns of bed ${n} were pressed on card and labelled by hand.`),
    )
    given.push(source(8, 'Mangrove samples from the estuary were dried slowly in the shade.'))
    expect(extractiveAnswer('How were the mangrove samples dried?', given)).toBe(
      'Mangrove samples from the estuary were dried slowly in the shade [8].',
    )
  })

  it('keeps to four sentences and three a passage', () => {
    const many = [1, 2, 3].map((n) =>
      source(
        n,
        `The tide rose over mudflats. The tide fell past reefs. The tide turned near piers. The tide slept under moonlight.`,
      ),
    )
    const answer = extractiveAnswer('tide', many)
    expect(answer.match(/\[\d\]/g)).toEqual(['[1]', '[1]', '[1]', '[2]'])
  })

  it('passes its own citation check, quoting the sentences it extracted', () => {
    const answer = extractiveAnswer('How were the mangrove samples dried?', sources)
    const { citations, invalid } = checkCitations(answer, sources)
    expect(invalid).toEqual([])
    expect(citations.every((c) => c.supported)).toBe(true)
    expect(citations[0]!.quote).toBe(
      'Mangrove samples from the estuary were dried slowly to keep their leaves intact. … Mangrove leaves curl when they are dried too fast.',
    )
  })

  it("turns a passage's own bracketed numbers into parentheses", () => {
    const answer = extractiveAnswer('storms voyage log', sources)
    expect(answer).toContain('records storms (3) near the estuary [2].')
  })

  it('answers a long question from the sentence sharing many of its terms', () => {
    // A question defining its measure spreads its weight over twenty-odd terms: the line
    // naming five of them holds less than a fifth of it, and once went unanswered.
    const question =
      'What is the 2019 cash conversion cycle for Acme? It is defined as inventory days plus ' +
      'receivable days minus payable days, each from the average balance between 2018 and ' +
      '2019 over revenue or cost of goods sold. Round your answer to two decimal places.'
    const filing = [
      source(1, 'The river floods every spring. Cash flows from operating activities rose.'),
      source(2, 'Inventories, receivables, payables and cash grew at the balance date.'),
      source(3, 'Days sales outstanding and days payable are set out in the glossary.'),
      source(4, 'Revenue is shown in millions. Amounts are rounded to two places.'),
      source(5, 'Conversion costs fell. The cycle was defined anew. Goods sold rose on average.'),
    ]
    expect(extractiveAnswer(question, filing)).toBe(
      'Inventories, receivables, payables and cash grew at the balance date [2].',
    )
  })

  it('says the documents do not answer when nothing matches', () => {
    expect(extractiveAnswer('quantum chromodynamics', sources)).toBe(NO_ANSWER)
    expect(extractiveAnswer('mangrove', [])).toBe(NO_ANSWER)
  })
})

describe('extractiveAnswer on Markdown documents', () => {
  const markdown = source(
    1,
    '# Swimming in the lake\n\nSwimming in the lake is **allowed** from June, see [the rules](https://example.test).\n\n' +
      '- Swimming in the lake needs a `permit` from the town hall.\n\n| lake | swimming |\n|---|---|\n| north | yes |',
  )

  it('answers in prose: no headings, table rows or Markdown syntax', () => {
    const answer = extractiveAnswer('When is swimming in the lake allowed?', [markdown])
    expect(answer).toBe(
      'Swimming in the lake is allowed from June, see the rules [1]. ' +
        'Swimming in the lake needs a permit from the town hall [1].',
    )
    const [checked] = checkCitations(answer, [markdown]).citations
    expect(checked?.supported).toBe(true)
  })
})

describe('a focused extractive answer', () => {
  const travel = (n: number, content: string, title = 'Travel policy') => ({
    ...source(n, content),
    document_id: `doc-${title}`,
    title,
  })

  it('leaves out sentences that share a single word with the question', () => {
    const passages = [
      source(1, 'Steamer ducks cannot fly, and they race across the water instead.'),
      source(2, 'Employees may book business class on flights longer than six hours.'),
    ]
    expect(extractiveAnswer('Can I fly business class?', passages)).toBe(
      'Employees may book business class on flights longer than six hours [2].',
    )
  })

  it('never quotes a long list: its source is offered as a passage to show', () => {
    const subsidiaries = Array.from({ length: 12 }, (_, i) => `Subsidiary ${i} of New York Inc.`)
    const passages = [
      travel(1, 'The nightly hotel limit in New York is 350 dollars before taxes.'),
      travel(2, `Hotel subsidiaries in New York: ${subsidiaries.join(', ')}.`),
    ]
    const answer = extractiveAnswer('What is the nightly hotel limit in New York?', passages)
    expect(answer).toBe(
      'The nightly hotel limit in New York is 350 dollars before taxes [1]. ' +
        'A list on page 2 matches the question: show passage [2].',
    )
    expect(answer.length).toBeLessThan(200)
  })

  it('offers a matching table as a passage to show, never pasting it', () => {
    const ratios = source(
      3,
      'Capital ratios by year.\n\n| Year | Tier 1 capital ratio |\n|---|---|\n| 2023 | 12.1% |\n| 2024 | 12.5% |',
    )
    expect(extractiveAnswer('Tier 1 capital ratio in 2024', [ratios])).toBe(
      'Capital ratios by year [3]. A table on page 3 matches the question: show passage [3].',
    )
    const { citations } = checkCitations(
      'A table on page 3 matches the question: show passage [3].',
      [ratios],
    )
    // A pointer claims nothing, so the check has nothing to doubt.
    expect(citations[0]!.supported).toBeNull()
  })

  it('keeps to a few sentences', () => {
    const facts = [
      'Hotel rooms in York are booked through the travel desk.',
      'Hotel rooms in York need a receipt itemised by night.',
      'Breakfast is included in most hotel rooms in York.',
      'Hotel rooms in York near the station fill up early.',
      'Shared hotel rooms in York are never required.',
    ]
    const many = [source(1, facts.slice(0, 3).join(' ')), source(2, facts.slice(3).join(' '))]
    expect(extractiveAnswer('hotel rooms in York', many).match(/\[\d\]/g)).toHaveLength(4)
  })

  it('groups sentences by document, each headed by its title, when two documents answer', () => {
    const passages = [
      travel(1, 'Acme requires a capital ratio of at least 8 percent.', 'Acme rules'),
      travel(2, 'Globex requires a capital ratio of at least 10 percent.', 'Globex *rules*'),
      travel(3, 'Acme reviews the capital ratio every quarter.', 'Acme rules'),
    ]
    expect(extractiveAnswer('What capital ratio is required?', passages)).toBe(
      '**Acme rules**\n\n' +
        'Acme requires a capital ratio of at least 8 percent [1]. ' +
        'Acme reviews the capital ratio every quarter [3].\n\n' +
        '**Globex \\*rules\\***\n\n' +
        'Globex requires a capital ratio of at least 10 percent [2].',
    )
  })

  it('prefers the sentence naming the period asked about', () => {
    const passages = [
      source(1, 'Revenue grew by four percent in 2021 across the group.'),
      source(2, 'Revenue grew by nine percent in 2022 across the group.'),
    ]
    const answer = extractiveAnswer('How much did revenue grow in 2022?', passages)
    expect(answer.startsWith('Revenue grew by nine percent in 2022')).toBe(true)
  })
})

describe('closestPassages', () => {
  it('quotes the best sentence of each top passage, shortened, as cards to open', () => {
    const long = `Ferns dry flat. ${'Pressed ferns keep their colour on card. '.repeat(10)}`
    const cards = closestPassages('pressed ferns', [
      source(1, 'Mosses are kept loose. Ferns are pressed between sheets of paper.'),
      source(2, long),
      source(3, 'Card came from a mill.'),
      source(4, 'Never shown.'),
    ])
    expect(cards.map((c) => c.n)).toEqual([1, 2, 3])
    expect(cards[0]).toMatchObject({
      title: 'Document 1',
      page_start: 1,
      quote: 'Ferns are pressed between sheets of paper.',
      char_start: 123,
      supported: null,
    })
    expect(cards[1]!.quote.length).toBeLessThanOrEqual(281)
    expect(cards[2]!.quote).toBe('Card came from a mill.')
  })
})

describe('extractiveAnswer and lists', () => {
  const packing = source(
    1,
    'Before the trip, remember what to pack:\n\n- Wear sunglasses\n- Drink water\n\nMaple syrup is served at breakfast every day.',
  )

  it('ends a sentence that introduces a list with a full stop, without the list', () => {
    expect(extractiveAnswer('What should I pack for the trip?', [packing])).toBe(
      'Before the trip, remember what to pack [1].',
    )
  })

  it('counts the words of short list items, so a question about them is not half-answered', () => {
    expect(extractiveAnswer('sunglasses maple', [packing])).toBe(NO_ANSWER)
  })
})

describe('closestPassages and short matches', () => {
  it('quotes the list item or table row holding the asked word, not the opening', () => {
    const [packing, table] = closestPassages('sunglasses maple', [
      source(1, 'To start swimming, lie down in the water.\n\n- Wear sunglasses\n- Drink water'),
      source(
        2,
        'Ducks eat well.\n\n| Food | Calories |\n|---|---|\n| Leaves | Ash, Elm, Maple | 50 |',
      ),
    ])
    expect(packing!.quote).toBe('Wear sunglasses')
    // Only the matching row, as cells rather than a pasted table.
    expect(table!.quote).toBe('Leaves · Ash, Elm, Maple · 50')
  })
})
