// Generated from packages/core/src/signals/detect-signals.ts by `npm run sync:core`: edit that file, not this one.
import { findPeriods } from './periods.ts'
import { readableTitle } from './readable-title.ts'

/** What a document is, as detected at import: a default that editors may correct. */
export interface DocumentSignals {
  /** A readable title from the file name (see readableTitle). */
  title: string
  /** Years, quarters and dates its title and opening passage name (see findPeriods). */
  periods: string[]
  /** Organisations its title's opening passage names: "Acme Widgets, Inc.". */
  names: string[]
  /** The opening passage, which every passage of the document is also found by. */
  opening: string
}

// The columns' limits (20260101002700_document_signals.sql).
const maxItems = 20
const maxOpening = 4000

// A run of capitalised words (with "&", "of", "and" between them) ending in a suffix that
// makes it an organisation's name: parties of a contract, a report's company, a manual's maker.
const suffix =
  '(?:Inc|Incorporated|Corp|Corporation|Company|Co|Ltd|Limited|LLC|LLP|L\\.P|plc|PLC|GmbH|AG|S\\.A|N\\.V|SE)\\.?'
const word = "(?:[A-Z][A-Za-z0-9'’.-]*|&)"
const organisation = new RegExp(
  `\\b(${word}(?:[ \\t]+(?:${word}|of|and|the))*?),?[ \\t]+${suffix}(?![A-Za-z])`,
  'g',
)

/**
 * The signals of a document from its file name and its opening passage (the first chunk's
 * text). Pure and cheap: runs in the import pipeline, in the browser and in Node.
 */
export function detectSignals(fileName: string, opening: string): DocumentSignals {
  const title = readableTitle(fileName)
  const head = opening.slice(0, maxOpening)
  return {
    title,
    periods: findPeriods(`${title}\n${head}`).slice(0, maxItems),
    names: findNames(head).slice(0, maxItems),
    opening: head,
  }
}

function findNames(text: string): string[] {
  const names = new Map<string, string>()
  for (const m of text.matchAll(organisation)) {
    // A sentence's full stop after a whole word (Company.) is not part of the name.
    const name = m[0]
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/([a-z]{4})\.$/, '$1')
    // Leading words that only start a sentence are not part of the name.
    const trimmed = name.replace(/^(?:(?:The|A|An|By|For|Of|And|&)\s+)+/, '')
    if (/^[A-Z]/.test(trimmed) && trimmed.length <= 100) names.set(trimmed.toLowerCase(), trimmed)
  }
  return [...names.values()]
}
