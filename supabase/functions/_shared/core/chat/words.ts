// Generated from packages/core/src/chat/words.ts by `npm run sync:core`: edit that file, not this one.
import { stem } from './stem.ts'

// Words that carry no content of their own: overlap on them says nothing about support.
const stopWords = new Set(
  `a about above after again against all also am an and any are as at be because been before
  being below between both but by can could did do does doing down during each few for from
  further had has have having he her here hers herself him himself his how however i if in into
  is it its itself just may me might more most must my myself no nor not now of off on once
  only or other our ours ourselves out over own same shall she should so some such than that
  the their theirs them themselves then there these they this those through thus to too under
  until up upon very was we were what when where which while who whom whose why will with
  would yet you your yours yourself yourselves according answer documents document source
  sources`.split(/\s+/),
)

/** The stemmed content words of a text, in order, repeats kept. */
export function contentWords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []
  return words
    .map((w) => w.replace(/['’].*$/, ''))
    .filter((w) => (w.length > 1 || /\d/.test(w)) && !stopWords.has(w))
    .map(stem)
}
