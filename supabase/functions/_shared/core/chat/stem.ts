// Generated from packages/core/src/chat/stem.ts by `npm run sync:core`: edit that file, not this one.
// The Porter (1980) stemmer, so that "dried", "drying" and "dries" count as one word when
// an answer sentence is compared with the passage it cites.

const vowelAt = (w: string, i: number): boolean => {
  const c = w[i]
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return true
  return c === 'y' && i > 0 && !vowelAt(w, i - 1)
}

/** m: the number of vowel-consonant sequences in the stem. */
function measure(stem: string): number {
  let m = 0
  let i = 0
  while (i < stem.length && !vowelAt(stem, i)) i++
  while (i < stem.length) {
    while (i < stem.length && vowelAt(stem, i)) i++
    if (i >= stem.length) break
    m++
    while (i < stem.length && !vowelAt(stem, i)) i++
  }
  return m
}

const hasVowel = (stem: string) => [...stem].some((_, i) => vowelAt(stem, i))
const doubleConsonant = (w: string) =>
  w.length > 1 && w.at(-1) === w.at(-2) && !vowelAt(w, w.length - 1)
/** cvc, where the last c is not w, x or y. */
const cvc = (w: string) => {
  const n = w.length
  if (n < 3 || vowelAt(w, n - 1) || !vowelAt(w, n - 2) || vowelAt(w, n - 3)) return false
  return !'wxy'.includes(w[n - 1]!)
}

/** Replaces the first listed suffix the word ends with, when the stem's measure allows. */
function replaceSuffix(w: string, rules: [string, string][], minMeasure: number): string {
  for (const [suffix, replacement] of rules) {
    if (!w.endsWith(suffix)) continue
    const stem = w.slice(0, -suffix.length)
    return measure(stem) > minMeasure ? stem + replacement : w
  }
  return w
}

// prettier-ignore
const step2: [string, string][] = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'],
  ['abli', 'able'], ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'],
  ['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'],
  ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble'],
]
// prettier-ignore
const step3: [string, string][] = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''],
  ['ness', ''],
]
// prettier-ignore
const step4 = [
  'al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou',
  'ism', 'ate', 'iti', 'ous', 'ive', 'ize',
]

function step1(word: string): string {
  let w = word
  if (w.endsWith('sses')) w = w.slice(0, -2)
  else if (w.endsWith('ies')) w = w.slice(0, -2)
  else if (!w.endsWith('ss') && w.endsWith('s')) w = w.slice(0, -1)

  let trimmed = false
  if (w.endsWith('eed')) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1)
  } else if (w.endsWith('ed') && hasVowel(w.slice(0, -2))) {
    w = w.slice(0, -2)
    trimmed = true
  } else if (w.endsWith('ing') && hasVowel(w.slice(0, -3))) {
    w = w.slice(0, -3)
    trimmed = true
  }
  if (trimmed) {
    if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e'
    else if (doubleConsonant(w) && !'lsz'.includes(w.at(-1)!)) w = w.slice(0, -1)
    else if (measure(w) === 1 && cvc(w)) w += 'e'
  }
  // Porter2's reading of step 1c, so that "dry" and "dried" meet at "dri".
  if (w.endsWith('y') && w.length > 2 && !vowelAt(w, w.length - 2)) w = `${w.slice(0, -1)}i`
  return w
}

function step4and5(word: string): string {
  let w = word
  for (const suffix of step4) {
    if (!w.endsWith(suffix)) continue
    const stem = w.slice(0, -suffix.length)
    const ionOk = suffix !== 'ion' || stem.endsWith('s') || stem.endsWith('t')
    if (measure(stem) > 1 && ionOk) w = stem
    break
  }
  if (w.endsWith('e')) {
    const stem = w.slice(0, -1)
    const m = measure(stem)
    if (m > 1 || (m === 1 && !cvc(stem))) w = stem
  }
  if (measure(w) > 1 && doubleConsonant(w) && w.endsWith('l')) w = w.slice(0, -1)
  return w
}

/** The stem of one lower-case word. */
export function stem(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word
  return step4and5(replaceSuffix(replaceSuffix(step1(word), step2, 0), step3, 0))
}
