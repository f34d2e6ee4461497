// Low-level helpers shared by the select, filter and order parsers.

/** Splits on `sep` outside parentheses, braces and double quotes. */
export function splitTop(text: string, sep = ','): string[] {
  const parts: string[] = []
  let depth = 0
  let quoted = false
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (quoted) {
      if (ch === '\\') i++
      else if (ch === '"') quoted = false
    } else if (ch === '"') quoted = true
    else if (ch === '(' || ch === '{' || ch === '[') depth++
    else if (ch === ')' || ch === '}' || ch === ']') depth--
    else if (ch === sep && depth === 0) {
      parts.push(text.slice(start, i))
      start = i + 1
    }
  }
  parts.push(text.slice(start))
  return parts
}

/** Removes surrounding double quotes and backslash escapes from one list element. */
export function unquote(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    return text.slice(1, -1).replace(/\\(.)/g, '$1')
  }
  return text
}

export type JsonStep = { arrow: '->' | '->>'; key: string }

/** A column reference, possibly with a JSON path: `data->a->>b`. */
export type Field = { name: string; json: JsonStep[] }

/** Parses `name->a->>b`; returns null when the text is not a field. */
export function parseField(text: string): Field | null {
  const pieces = text.split(/(->>|->)/)
  const name = unquote((pieces[0] ?? '').trim())
  if (!name || /[()"]/.test(name)) return null
  const json: JsonStep[] = []
  for (let i = 1; i < pieces.length; i += 2) {
    const key = unquote(pieces[i + 1] ?? '')
    if (!key) return null
    json.push({ arrow: pieces[i] as '->' | '->>', key })
  }
  return { name, json }
}

/** The key a JSON path renders under, as PostgREST names it: the last key, else the column. */
export function fieldLabel(field: Field): string {
  return field.json[field.json.length - 1]?.key ?? field.name
}
