// Quoting and parameters: request text reaches SQL only as $n parameters or quoted identifiers.

export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`

export const table = (schema: string, name: string) => `${ident(schema)}.${ident(name)}`

/** A JSON key as an SQL literal: integers index arrays, anything else is a quoted string. */
export const jsonKey = (key: string) =>
  /^-?\d{1,9}$/.test(key) ? key : `'${key.replaceAll("'", "''")}'`

export class Params {
  readonly values: unknown[] = []
  add(value: unknown): string {
    this.values.push(value)
    return `$${this.values.length}`
  }
}
