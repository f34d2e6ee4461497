import { NO_ANSWER } from './no-answer.ts'
import { isBulky, isTableRow } from './passage-shape.ts'
import { plainLinks } from './plain-links.ts'
import { clearsBar, type Scorer, scorer } from './relevance.ts'
import { type Sentence, splitSentences } from './sentences.ts'
import { SHOW_PASSAGE } from './show-passage.ts'
import { readTableRows } from './table-rows.ts'
import type { Citation, Source } from './types.ts'
import { contentWords } from './words.ts'

// MAX_SENTENCES and the rest chosen on SciFact's test claims (scripts/eval-extractive.ts).
// PASSAGES is every passage chat is given (retrieve.ts): in a library of long documents the
// page that answers is often ranked 6th to 8th, and a sentence there still has to outscore
// the earlier ones, which rank higher. SciFact: rationale hit rate 0.590 at 5 and at 8.
/** How many of the top passages an extractive answer draws from. */
const PASSAGES = 8
const MAX_SENTENCES = 4
const MAX_PER_PASSAGE = 3
/** Sentences sharing more of their words than this say the same thing for a reader. */
const NEAR_DUPLICATE = 0.4
// Two documents often word their rules alike (two companies' capital ratios): both count,
// each under its title, unless one repeats the other.
const NEAR_DUPLICATE_ACROSS = 0.8
/** After two, a sentence must score this share of the best one. */
const RELATIVE_BAR = 0.5
/** The most a table or a long list is marked down for its length: as a 40-word sentence. */
const BULKY_LENGTH = 2
/** How many closest passages a no-answer shows, and how much of each. */
const CLOSEST = 3
const QUOTE_CHARS = 280

// Headings of Markdown documents say nothing on their own.
const heading = /^\s*#{1,6}\s/

type Candidate = {
  source: Source
  sentence: Sentence
  words: Set<string>
  bulky: boolean
  relevant: boolean
  score: number
}

const jaccard = (a: Set<string>, b: Set<string>) => {
  let shared = 0
  for (const w of a) if (b.has(w)) shared++
  return shared / (a.size + b.size - shared || 1)
}

const duplicates = (a: Candidate, b: Candidate) =>
  jaccard(a.words, b.words) >
  (a.source.document_id === b.source.document_id ? NEAR_DUPLICATE : NEAR_DUPLICATE_ACROSS)

/** Every quotable sentence of the top passages, scored against the question. */
function candidates(question: string, sources: Source[]): Candidate[] {
  const all = sources.slice(0, PASSAGES).flatMap((source) =>
    readTableRows(splitSentences(source.content), source.heading_path).map(
      ({ sentence, context }) => ({
        source,
        sentence,
        words: new Set(contentWords(`${context}\n${sentence.text}`)),
        bulky: isBulky(sentence.text),
        relevant: false,
        score: 0,
      }),
    ),
  )
  // Statistics over every sentence, short list items too: a word the passages hold only
  // there ("wear sunglasses") is still one the question asks about.
  const score = scorer(
    question,
    all.map((c) => c.words),
  )
  const quotable = all.filter(
    (c) =>
      c.sentence.text.length >= 20 &&
      /\p{L}/u.test(c.sentence.text) &&
      !heading.test(c.sentence.text),
  )
  for (const [i, c] of quotable.entries()) {
    // Long sentences match more words by chance; earlier passages ranked higher in retrieval.
    // A table (or list) is offered whole, and holds a question's words only across its rows
    // (the year in its header, the measure in a row's label): its length is its nature, not
    // a sign of a chance match, so it is marked down no more than a long sentence.
    const length = Math.min(c.bulky ? BULKY_LENGTH : Infinity, Math.max(1, c.words.size / 20))
    const rank = 1 - 0.04 * (c.source.n - 1)
    c.score = (score.coverage(c.words) / Math.sqrt(length)) * rank - i * 1e-9
    c.relevant = clearsBar(score, c.words)
  }
  return quotable
}

/**
 * The few best sentences that clear the bar: no near-duplicates, at most three a passage.
 * Comparing, each document's best sentence comes first, so every document is heard.
 */
function choose(ranked: Candidate[], compare: boolean): Candidate[] {
  const chosen: Candidate[] = []
  if (compare) {
    const heard = new Set<string>()
    for (const c of ranked) {
      if (!c.relevant || c.bulky || heard.has(c.source.document_id)) continue
      heard.add(c.source.document_id)
      chosen.push(c)
    }
  }
  const limit = Math.max(MAX_SENTENCES, chosen.length)
  for (const c of ranked) {
    if (chosen.length >= limit) break
    if (chosen.includes(c)) continue
    if (!c.relevant) continue
    if (chosen.length >= 2 && c.score < RELATIVE_BAR * chosen[0]!.score) break
    const same = chosen.filter((x) => x.source.n === c.source.n)
    if (same.length === MAX_PER_PASSAGE) continue
    // One "show passage" a source is enough, however many of its rows match.
    if (c.bulky && same.some((x) => x.bulky)) continue
    if (!c.bulky && chosen.some((x) => !x.bulky && duplicates(x, c))) continue
    chosen.push(c)
  }
  return chosen
}

/**
 * An answer made of the few sentences of the top passages that best answer the question,
 * each clearing the relevance bar and cited [n] (the source's number). A table row or a long
 * list is never quoted: its source is offered with "show passage [n]" instead. Sentences
 * are grouped by document, in passage then reading order, and each group is headed by its
 * document's title when more than one document is used. Comparing (a conversation about
 * several documents), each document's best sentence that clears the bar is taken first.
 * NO_ANSWER when nothing clears the bar.
 */
export function extractiveAnswer(
  question: string,
  sources: Source[],
  { compare = false } = {},
): string {
  const chosen = choose(
    candidates(question, sources).sort((a, b) => b.score - a.score),
    compare,
  )
  if (chosen.length === 0) return NO_ANSWER
  chosen.sort((a, b) => a.source.n - b.source.n || a.sentence.start - b.sentence.start)
  const groups = new Map<string, Candidate[]>()
  for (const c of chosen)
    groups.set(c.source.document_id, [...(groups.get(c.source.document_id) ?? []), c])
  const paragraphs = [...groups.values()].map((group) => group.map(sentenceOf).join(' '))
  if (groups.size === 1) return paragraphs[0]!
  return [...groups.values()]
    .map((group, i) => `**${escapeMarkdown(group[0]!.source.title)}**\n\n${paragraphs[i]}`)
    .join('\n\n')
}

function sentenceOf({ source, sentence, bulky }: Candidate): string {
  if (!bulky) return cite(plain(sentence.text), source.n)
  const what = isTableRow(sentence.text) ? 'A table' : 'A list'
  const where = source.page_start === null ? '' : ` on page ${source.page_start}`
  return `${what}${where} matches the question: ${SHOW_PASSAGE} [${source.n}].`
}

/**
 * The passages closest to a question that none answers, as cards to show under NO_ANSWER:
 * the top passages in rank order, each quoting the sentence that matches most of the
 * question (a short list item or a table row too: the card shows where the words are), or
 * its opening when none does.
 */
export function closestPassages(question: string, sources: Source[]): Citation[] {
  const shown = sources.slice(0, CLOSEST)
  const sentences = shown.map((source) =>
    splitSentences(source.content)
      .filter((s) => !heading.test(s.text))
      .map((sentence) => ({ sentence, words: new Set(contentWords(sentence.text)) })),
  )
  const score = scorer(
    question,
    sentences.flat().map((s) => s.words),
  )
  return shown.map(({ content, heading_path: _headingPath, ...source }, i) => {
    let best = sentences[i]![0]
    for (const s of sentences[i]!)
      if (score.coverage(s.words) > score.coverage(best!.words)) best = s
    const offset = source.char_start
    return {
      ...source,
      n: i + 1,
      char_start: best && offset !== null ? offset + best.sentence.start : source.char_start,
      char_end: best && offset !== null ? offset + best.sentence.end : source.char_end,
      quote: shorten(best ? cardQuote(best.sentence.text, score) : plain(content)),
      supported: null,
    }
  })
}

/**
 * A card's quote: for a table or a list, only its line holding most of the question, a table
 * row's cells joined by " · " ("Leaves · Ash, Elm, Maple · 50") rather than pasted pipes.
 */
function cardQuote(text: string, score: Scorer): string {
  const lines = text.split('\n').filter((line) => /[\p{L}\p{N}]/u.test(line))
  let best = lines[0] ?? text
  for (const line of lines)
    if (score.coverage(new Set(contentWords(line))) > score.coverage(new Set(contentWords(best))))
      best = line
  if (!isTableRow(best)) return plain(best)
  return best
    .split(/\||\t/)
    .map((cell) => cell.trim())
    .filter(Boolean)
    .join(' · ')
}

const shorten = (text: string) =>
  text.length <= QUOTE_CHARS ? text : `${text.slice(0, QUOTE_CHARS).replace(/\s+\S*$/, '')}…`

const escapeMarkdown = (text: string) => text.replace(/[\\`*_[\]<>#|~]/g, '\\$&')

/** A sentence of a Markdown document as prose: no list marker, emphasis, code ticks or link syntax. */
function plain(sentence: string): string {
  return plainLinks(sentence.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, ''))
    .replace(/(\*\*|__|\*|`)(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/\s+/g, ' ')
}

/**
 * "It rained." → "It rained [2]." (the marker goes before the closing punctuation). The
 * passage's own bracketed numbers become parentheses so they cannot pass for citations.
 */
function cite(sentence: string, n: number): string {
  // A sentence introducing a list ("Also, don't forget:") ends here, without its list.
  const text = sentence.replace(/\[([\d,\s]+)\]/g, '($1)').replace(/:$/, '.')
  const end = /([.!?;:]+["'”’)\]]*)$/.exec(text)?.[1]
  if (!end) return `${text} [${n}].`
  return `${text.slice(0, -end.length)} [${n}]${end}`
}
