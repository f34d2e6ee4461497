// Generated from packages/core/src/signals/readable-title.ts by `npm run sync:core`: edit that file, not this one.
/**
 * A file name as a person would write it: `JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf` → "Johnson
 * Johnson 2023 Q2 Earnings", `AmericanWaterWorks-2020-annual.pdf` → "American Water Works 2020
 * Annual". The extension goes; underscores, hyphens and dots split words, as do case changes
 * inside a word and runs of letters against runs of digits. A short code of one letter and one
 * or two digits (Q2, H1, A4) or digits and one letter (10K, 8K) stays whole: split, its parts
 * say nothing. Words in capitals become capitalised words, except short ones (US, FY, LLC),
 * which are more often acronyms than names.
 */
export function readableTitle(fileName: string): string {
  const base = fileName.split(/[/\\]/).pop() ?? fileName
  const stem = base.replace(/\.[a-z0-9]{1,5}$/i, '')
  const words = stem
    .split(/[\s_.\-–—+,;()[\]]+/)
    .flatMap(splitWord)
    .filter(Boolean)
    .map(capitalise)
  return words.join(' ') || base
}

function splitWord(word: string): string[] {
  if (/^([a-z]\d{1,2}|\d{1,3}[a-z])$/i.test(word)) return [word]
  return (
    word
      .replace(/([a-z])(?=[A-Z])|([A-Z])(?=[A-Z][a-z])/g, '$1$2 ')
      .replace(/([a-z])(?=\d)|(\d)(?=[a-z])/gi, '$1$2 ')
      .split(' ')
      // "2023 Q 2" from 2023Q2: the code of one letter and its digits goes back together.
      .reduce<string[]>((out, part) => {
        const last = out.at(-1)
        if (last && /^[a-z]$/i.test(last) && /^\d{1,2}$/.test(part)) out[out.length - 1] += part
        else out.push(part)
        return out
      }, [])
  )
}

function capitalise(word: string): string {
  if (word.length > 3 && word === word.toUpperCase() && /[A-Z]/.test(word)) {
    return word[0] + word.slice(1).toLowerCase()
  }
  return /^[a-z]/.test(word) ? word[0]!.toUpperCase() + word.slice(1) : word
}
