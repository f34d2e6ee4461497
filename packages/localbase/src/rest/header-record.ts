// The request's headers as the one JSON object PostgREST puts into `request.headers`.

const isHttpWhitespace = (code: number) => code === 9 || code === 10 || code === 13 || code === 32

/** A value without leading or trailing HTTP whitespace, as fetch's Headers normalises it. */
function normalized(value: string): string {
  let start = 0
  let end = value.length
  while (start < end && isHttpWhitespace(value.charCodeAt(start))) start++
  while (end > start && isHttpWhitespace(value.charCodeAt(end - 1))) end--
  return start === 0 && end === value.length ? value : value.slice(start, end)
}

/**
 * The record a request's fetch Headers would give, entry by entry (names lower-cased and in
 * sorted order, repeats joined with ", " and cookies with "; ", the last Set-Cookie winning),
 * built from Node's raw header list (name, value, name, value...). Listing the Request's own
 * Headers instead makes @hono/node-server build a full fetch Headers object for every call
 * first, validating each header again: about 4% of a REST read's main-thread CPU.
 */
export function headerRecord(raw: readonly string[]): Record<string, string> {
  const values = new Map<string, string>()
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase()
    // HTTP/2 pseudo-headers (":path") are not headers of the request.
    if (name.startsWith(':')) continue
    const value = normalized(raw[i + 1]!)
    const before = values.get(name)
    values.set(
      name,
      before === undefined || name === 'set-cookie'
        ? value
        : `${before}${name === 'cookie' ? '; ' : ', '}${value}`,
    )
  }
  const record: Record<string, string> = {}
  for (const name of [...values.keys()].sort()) record[name] = values.get(name)!
  return record
}
