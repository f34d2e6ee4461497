// Generated from packages/core/src/signals/periods.ts by `npm run sync:core`: edit that file, not this one.
/**
 * Periods named in a text, written one way whatever way the text wrote them: a year
 * ("2018": FY2018, fiscal 2018, the year of a date), a quarter ("Q2 2023": Q2 2023, 2023Q2,
 * second quarter of 2023) and a date ("June 30, 2022": June 30, 2022, 30 June 2022,
 * 2022-06-30). A quarter or a date also names its year. The same parser reads documents
 * (their title and opening page) and questions, so both sides meet on the same strings.
 */
const months = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]
const monthName = `(${months.join('|')}|${months.map((m) => m.slice(0, 3)).join('|')})\\.?`
const ordinals = ['first', 'second', 'third', 'fourth']
const year = '((?:19|20)\\d\\d)'
// Not inside a word or a number: file names join words with underscores (EARNINGS_2023Q2),
// which \\b takes for letters.
const start = '(?<![A-Za-z0-9]|\\d[.,])'

// Each pattern names its groups' meaning in `read`.
const patterns: { re: RegExp; read: (m: RegExpExecArray) => string[] }[] = [
  {
    // June 30, 2022 · Jun. 30 2022
    re: new RegExp(`\\b${monthName}\\s+(\\d{1,2}),?\\s+${year}\\b`, 'gi'),
    read: (m) => dated(m[3]!, m[1]!, m[2]!),
  },
  {
    // 30 June 2022
    re: new RegExp(`\\b(\\d{1,2})\\s+${monthName},?\\s+${year}\\b`, 'gi'),
    read: (m) => dated(m[3]!, m[2]!, m[1]!),
  },
  {
    // 2022-06-30
    re: new RegExp(`${start}${year}-(\\d\\d)-(\\d\\d)(?!\\d)`, 'g'),
    read: (m) => dated(m[1]!, months[Number(m[2]) - 1] ?? '', m[3]!),
  },
  {
    // Q2 2023 · Q2 FY2023 · Q2'23 is left out (two-digit years are too often other numbers)
    re: new RegExp(`\\bQ([1-4])[\\s,]*(?:FY|fiscal\\s+(?:year\\s+)?)?${year}\\b`, 'gi'),
    read: (m) => [`Q${m[1]} ${m[2]}`, m[2]!],
  },
  {
    // 2023Q2 · 2023 Q2
    re: new RegExp(`${start}${year}\\s*Q([1-4])(?![A-Za-z0-9])`, 'gi'),
    read: (m) => [`Q${m[2]} ${m[1]}`, m[1]!],
  },
  {
    // second quarter of 2023 · second quarter 2023 · second quarter of fiscal 2023
    re: new RegExp(
      `\\b(${ordinals.join('|')})\\s+quarter\\s+(?:of\\s+)?(?:fiscal\\s+(?:year\\s+)?)?${year}\\b`,
      'gi',
    ),
    read: (m) => [`Q${ordinals.indexOf(m[1]!.toLowerCase()) + 1} ${m[2]}`, m[2]!],
  },
  {
    // FY2018 · FY 2018 · fiscal 2018 · fiscal year 2018 · a bare 2018
    re: new RegExp(`(?:\\bFY\\s*|\\bfiscal\\s+(?:year\\s+)?|${start})${year}(?!\\d|[.,]\\d)`, 'gi'),
    read: (m) => [m[1]!],
  },
]

function dated(y: string, month: string, day: string): string[] {
  const index = months.findIndex(
    (m) => m.slice(0, 3).toLowerCase() === month.slice(0, 3).toLowerCase(),
  )
  const d = Number(day)
  if (index < 0 || d < 1 || d > 31) return [y]
  return [`${months[index]} ${d}, ${y}`, y]
}

/** The distinct periods `text` names, in the order it first names them. */
export function findPeriods(text: string): string[] {
  const found: { at: number; periods: string[] }[] = []
  for (const { re, read } of patterns) {
    for (const m of text.matchAll(re)) found.push({ at: m.index, periods: read(m) })
  }
  found.sort((a, b) => a.at - b.at)
  return [...new Set(found.flatMap((f) => f.periods))]
}
