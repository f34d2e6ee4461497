// Generated from packages/core/src/extract/number-format.ts by `npm run sync:core`: edit that file, not this one.
/** Excel's built-in number formats by id (those a file may use without declaring them). */
const BUILT_IN: Readonly<Record<number, string>> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  5: '$#,##0;($#,##0)',
  6: '$#,##0;[Red]($#,##0)',
  7: '$#,##0.00;($#,##0.00)',
  8: '$#,##0.00;[Red]($#,##0.00)',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  // 14 is the reader's short date in Excel; ISO dates are unambiguous for every reader.
  14: 'yyyy-mm-dd',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'yyyy-mm-dd h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mm:ss.0',
  48: '##0.0E+0',
  49: '@',
}

export function builtInFormat(id: number): string | undefined {
  return BUILT_IN[id]
}

const MONTHS = [
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
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

/**
 * A number as a sheet shows it under `format` (Excel's format code): dates and times, percent,
 * thousands separators, fixed decimals, scientific, currency and literal text, negative sections
 * in parentheses. Anything it does not understand falls back to the General format, so a value
 * is never lost, only shown plainer.
 */
export function formatNumber(value: number, format: string, date1904 = false): string {
  if (!Number.isFinite(value)) return String(value)
  const sections = splitSections(format)
  let section = sections[0] ?? 'General'
  let negativeSection = false
  if (value < 0 && sections.length > 1) {
    section = sections[1]!
    negativeSection = true
  } else if (value === 0 && sections.length > 2) section = sections[2]!
  // Colours and conditions change how a value looks, not what it says.
  section = section.replace(/\[(?![hms]+\])(?:[a-z]+|color ?\d+|[<>=][^\]]*)\]/gi, '')
  const bare = stripLiterals(section)
  if (/^\s*$/.test(section) || /general/i.test(bare)) return general(value)
  if (/@/.test(bare) && !/[0#?]/.test(bare)) return general(value)
  if (/[ymdhs]/i.test(bare.replace(/E[+-]/gi, ''))) return formatDate(value, section, date1904)
  const magnitude = negativeSection ? Math.abs(value) : value
  return formatDecimal(magnitude, section)
}

function splitSections(format: string): string[] {
  const sections: string[] = []
  let current = ''
  for (let i = 0; i < format.length; i++) {
    const char = format[i]!
    if (char === '"') {
      const end = format.indexOf('"', i + 1)
      const stop = end < 0 ? format.length : end
      current += format.slice(i, stop + 1)
      i = stop
    } else if (char === '\\') {
      current += format.slice(i, i + 2)
      i++
    } else if (char === ';') {
      sections.push(current)
      current = ''
    } else current += char
  }
  sections.push(current)
  return sections
}

/** The format with quoted text, escaped characters and brackets removed (for detection). */
function stripLiterals(section: string): string {
  return section
    .replace(/"[^"]*"|\\.|_.|\*./g, '')
    .replace(/\[[^\]]*\]/g, (m) => (/^\[h+\]|\[m+\]|\[s+\]$/i.test(m) ? m : ''))
}

function general(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e11) return String(value)
  const abs = Math.abs(value)
  if (abs !== 0 && (abs >= 1e11 || abs < 1e-9))
    return value
      .toExponential(5)
      .replace(/\.?0+e/, 'E')
      .replace('E+', 'E+')
  return String(Number(value.toPrecision(11)))
}

function formatDecimal(value: number, section: string): string {
  const bare = stripLiterals(section)
  const percent = (bare.match(/%/g) ?? []).length
  const scaled = value * 100 ** percent
  const numberPart = /[0#?][0#?,.]*(?:E[+-][0#]+)?/i.exec(bare)?.[0] ?? '0'
  const decimals = /\.([0#?]*)/.exec(numberPart)?.[1]?.length ?? 0
  // Commas after the last digit divide by a thousand each ("#,##0," shows thousands).
  const trailingCommas = /,+$/.exec(numberPart.replace(/E.*$/i, ''))?.[0].length ?? 0
  const divided = scaled / 1000 ** trailingCommas
  let digits: string
  if (/E[+-]/i.test(numberPart)) {
    digits = divided
      .toExponential(decimals)
      .replace('e', 'E')
      .replace(/E(\d)/, 'E+$1')
      .replace(/E([+-])(\d)$/, 'E$10$2')
  } else {
    const thousands = /[0#?],[0#?]/.test(numberPart)
    digits = numberFormatter(
      /\.(0*)/.exec(numberPart)?.[1]?.length ?? 0,
      decimals,
      thousands,
    ).format(Math.abs(divided))
    if (
      !/^[0]/.test(numberPart.replace(/[#,]/g, '')) &&
      /^0\./.test(digits) &&
      /^#/.test(numberPart)
    ) {
      digits = digits.slice(1)
    }
    if (divided < 0 && Math.round(Math.abs(divided) * 10 ** decimals) !== 0) digits = `-${digits}`
  }
  // Put the number where its placeholder run was, keeping the literal text around it.
  let out = ''
  let placed = false
  for (let i = 0; i < section.length; i++) {
    const char = section[i]!
    if (char === '"') {
      const end = section.indexOf('"', i + 1)
      const stop = end < 0 ? section.length : end
      out += section.slice(i + 1, stop)
      i = stop
    } else if (char === '\\') out += section[++i] ?? ''
    else if (char === '_') {
      out += ' '
      i++
    } else if (char === '*') i++
    else if (char === '[') i = Math.max(i, section.indexOf(']', i))
    else if (/[0#?.,]/.test(char) || (/E/i.test(char) && /[+-]/.test(section[i + 1] ?? ''))) {
      if (/E/i.test(char)) i++
      if (!placed) out += digits
      placed = true
    } else out += char
  }
  return out.trim()
}

// Building an Intl.NumberFormat costs far more than using one: a sheet reuses a few formats.
const formatters = new Map<string, Intl.NumberFormat>()

function numberFormatter(minimum: number, maximum: number, grouping: boolean): Intl.NumberFormat {
  const key = `${minimum}/${maximum}/${grouping}`
  let formatter = formatters.get(key)
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: minimum,
      maximumFractionDigits: maximum,
      useGrouping: grouping,
    })
    formatters.set(key, formatter)
  }
  return formatter
}

/** Days since 1899-12-30 (Excel's serial dates, which count a 29 February 1900 that never was). */
function formatDate(serial: number, section: string, date1904: boolean): string {
  const days = Math.floor(serial) + (date1904 ? 1462 : 0)
  let seconds = Math.round((serial - Math.floor(serial)) * 86400)
  const date = new Date(Date.UTC(1899, 11, 30) + (days + Math.floor(seconds / 86400)) * 86400000)
  seconds %= 86400
  const hours = Math.floor(seconds / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  const secs = seconds % 60
  const ampm = /AM\/PM|A\/P/i.test(section)
  const pad = (n: number, width = 2) => String(n).padStart(width, '0')
  const tokens = /"[^"]*"|\\.|\[h+\]|\[m+\]|\[s+\]|AM\/PM|A\/P|y+|m+|d+|h+|s+(?:\.0+)?|./gi
  const parts = section.match(tokens) ?? []
  let out = ''
  parts.forEach((token, i) => {
    const lower = token.toLowerCase()
    const previous =
      parts
        .slice(0, i)
        .reverse()
        .find((t) => /^[a-z[]/i.test(t) && !/^[,. /:-]$/.test(t))
        ?.toLowerCase() ?? ''
    const next =
      parts
        .slice(i + 1)
        .find((t) => /^[a-z[]/i.test(t))
        ?.toLowerCase() ?? ''
    if (token.startsWith('"')) out += token.slice(1, -1)
    else if (token.startsWith('\\')) out += token.slice(1)
    else if (/^\[h+\]$/.test(lower)) out += String(Math.floor(serial * 24))
    else if (/^\[m+\]$/.test(lower)) out += String(Math.floor(serial * 1440))
    else if (/^\[s+\]$/.test(lower)) out += String(Math.round(serial * 86400))
    else if (lower === 'am/pm') out += hours < 12 ? 'AM' : 'PM'
    else if (lower === 'a/p') out += hours < 12 ? 'A' : 'P'
    else if (lower.startsWith('y'))
      out += lower.length <= 2 ? pad(date.getUTCFullYear() % 100) : String(date.getUTCFullYear())
    else if (lower.startsWith('d')) {
      if (lower.length <= 2)
        out += lower.length === 2 ? pad(date.getUTCDate()) : String(date.getUTCDate())
      else out += lower.length === 3 ? DAYS[date.getUTCDay()]!.slice(0, 3) : DAYS[date.getUTCDay()]
    } else if (lower.startsWith('h')) {
      const h = ampm ? hours % 12 || 12 : hours
      out += lower.length >= 2 ? pad(h) : String(h)
    } else if (lower.startsWith('s')) {
      out += pad(secs)
    } else if (lower.startsWith('m')) {
      // "m" is minutes right after hours or right before seconds, otherwise the month.
      const isMinutes =
        previous.startsWith('h') || previous.startsWith('[h') || next.startsWith('s')
      if (isMinutes && lower.length <= 2) out += lower.length === 2 ? pad(minutes) : String(minutes)
      else if (lower.length === 1) out += String(date.getUTCMonth() + 1)
      else if (lower.length === 2) out += pad(date.getUTCMonth() + 1)
      else if (lower.length === 3) out += MONTHS[date.getUTCMonth()]!.slice(0, 3)
      else if (lower.length === 5) out += MONTHS[date.getUTCMonth()]!.charAt(0)
      else out += MONTHS[date.getUTCMonth()]
    } else if (token !== '_' && token !== '*') out += token
  })
  return out.trim()
}
