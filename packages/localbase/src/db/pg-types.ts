import { types as pgliteTypes } from '@electric-sql/pglite'
import pg from 'pg'

// Services were written against PGlite's values (int8 as a number, bytea as Uint8Array, date
// as a Date at UTC midnight...), so node-postgres parses text results with PGlite's own
// parsers: one shape of row whichever engine answered.

/** Array types whose elements PGlite parses, mapped to their element type. */
const arrays: Record<number, number> = {
  1000: 16, // bool[]
  1005: 21, // int2[]
  1007: 23, // int4[]
  1016: 20, // int8[]
  1021: 700, // float4[]
  1022: 701, // float8[]
  1231: 1700, // numeric[]
  1009: 25, // text[]
  1015: 1043, // varchar[]
  2951: 2950, // uuid[]
  199: 114, // json[]
  3807: 3802, // jsonb[]
  1115: 1114, // timestamp[]
  1185: 1184, // timestamptz[]
  1182: 1082, // date[]
}

const parsers = pgliteTypes.parsers as Record<
  number,
  ((x: string, type: number) => unknown) | undefined
>

export const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (format === 'binary') return pg.types.getTypeParser(oid, format)
    const element = arrays[oid]
    if (element !== undefined) {
      const parse = parsers[element]
      return (value: string) =>
        pgliteTypes.arrayParser(value, parse ? (x: string) => parse(x, element) : (x) => x, oid)
    }
    const parse = parsers[oid]
    if (parse) return (value: string) => parse(value, oid)
    return (value: string) => value
  },
} as pg.CustomTypesConfig
