import { ApiError, columnNotFound } from './errors.ts'
import type { OrderTerm } from './parse-filter.ts'
import type { Embed, QueryNode, SelectItem } from './parse-select.ts'
import { findRelationship, type Relationship } from './relations.ts'
import type { PgFunction, SchemaCache, Table } from './schema-cache.ts'
import { whereSql } from './read.ts'
import { compileCond } from './sql-filter.ts'
import { ident, jsonKey, type Params, table as tableSql } from './sql.ts'
import { type Field, fieldLabel } from './tokens.ts'

// One query level → SQL pieces. Embeds become LEFT JOIN LATERAL subqueries that build their
// JSON in SQL (to_json / json_agg), so values print exactly as PostgREST prints them.

/** Where a level reads from: a table, a CTE of mutated rows, or a function call. */
export type Source = { from: string; alias: string; table: Table | null; label: string }

export type Built = {
  columns: string[]
  /** Output keys, or null when unknown (`*` over a source without a known table). */
  labels: string[] | null
  joins: string[]
  /** The joins that `where` refers to, needed again for counting. */
  filterJoins: string[]
  where: string[]
  groupBy: string[]
  orderBy: string[]
}

type EmbedInfo = { alias: string; rel: Relationship; join: string; present: string }

export class SelectBuilder {
  private counter = 0
  readonly cache: SchemaCache
  readonly params: Params
  constructor(cache: SchemaCache, params: Params) {
    this.cache = cache
    this.params = params
  }

  alias(prefix = 't'): string {
    return `${prefix}${++this.counter}`
  }

  /** `rel(count)`: a bare `count` is the aggregate unless the table has such a column. */
  private isBareCount(item: SelectItem, source: Source): boolean {
    return (
      item.kind === 'column' &&
      item.field.name === 'count' &&
      item.field.json.length === 0 &&
      !item.cast &&
      !source.table?.columns.has('count')
    )
  }

  field(source: Source, field: Field): string {
    let sql = `${source.alias}.${ident(field.name)}`
    if (source.table && !source.table.columns.has(field.name)) {
      const computed = this.computed(source.table, field.name, false)
      if (!computed) throw columnNotFound(source.label, field.name)
      sql = `${tableSql(computed.schema, computed.name)}(${source.alias})`
    }
    for (const step of field.json) sql = `${sql}${step.arrow}${jsonKey(step.key)}`
    return sql
  }

  /** Builds one level; `filtered` is false when its filters already went into a mutation. */
  node(node: QueryNode, source: Source, filtered = true): Built {
    const built: Built = {
      columns: [],
      labels: [],
      joins: [],
      filterJoins: [],
      where: [],
      groupBy: [],
      orderBy: [],
    }
    const plain: string[] = []
    let counted = false
    const embeds = new Map<string, EmbedInfo>()
    for (const item of node.select) {
      if (item.kind === 'star') {
        if (!source.table) {
          built.columns.push(`${source.alias}.*`)
          built.labels = null
          plain.push(`${source.alias}.*`)
          continue
        }
        for (const name of source.table.columns.keys()) {
          built.columns.push(`${source.alias}.${ident(name)}`)
          built.labels?.push(name)
          plain.push(`${source.alias}.${ident(name)}`)
        }
      } else if (item.kind === 'column' && !this.isBareCount(item, source)) {
        const raw = this.field(source, item.field)
        const sql = item.cast ? `(${raw})::${item.cast}` : raw
        const label = item.alias ?? fieldLabel(item.field)
        built.columns.push(`${sql} as ${ident(label)}`)
        built.labels?.push(label)
        plain.push(sql)
      } else if (item.kind === 'aggregate' || item.kind === 'column') {
        const agg =
          item.kind === 'aggregate' ? item : { fn: 'count', field: null, alias: item.alias }
        const label = agg.alias ?? agg.fn
        const arg = agg.field ? this.field(source, agg.field) : '*'
        built.columns.push(`${agg.fn}(${arg}) as ${ident(label)}`)
        built.labels?.push(label)
        counted = true
      } else {
        const info = this.embed(item.embed, source, built)
        embeds.set(item.embed.alias ?? item.embed.name, info)
        if (!embeds.has(item.embed.name)) embeds.set(item.embed.name, info)
      }
    }
    if (counted) built.groupBy = [...plain, ...this.groupEmbeds(built, embeds)]
    const usedJoins = new Set<string>()
    const scope = {
      column: (f: Field) => this.field(source, f),
      embedPresent: (name: string) => {
        const info = embeds.get(name)
        if (!info) return null
        usedJoins.add(info.join)
        return info.present
      },
    }
    if (filtered) {
      for (const cond of node.filters) built.where.push(compileCond(cond, scope, this.params))
    }
    for (const info of new Set(embeds.values())) {
      if (usedJoins.has(info.join) && !built.filterJoins.includes(info.join)) {
        built.filterJoins.push(info.join)
      }
    }
    built.orderBy = node.order.map((term) => this.orderTerm(term, source, embeds))
    return built
  }

  /** json has no equality, so grouped embeds go through jsonb (the only case it is used). */
  private groupEmbeds(built: Built, embeds: Map<string, EmbedInfo>): string[] {
    const keys: string[] = []
    for (const { alias, rel } of new Set(embeds.values())) {
      if (!rel.toOne && built.columns.some((c) => c.includes(`json_array_elements(${alias}.v)`))) {
        continue
      }
      const value = `${alias}.v`
      built.columns = built.columns.map((c) => c.replaceAll(value, `(${value}::jsonb)`))
      keys.push(`${value}::jsonb`)
    }
    return keys
  }

  /** A function of the table's row: a computed field (scalar) or relationship (rows). */
  private computed(table: Table, name: string, rows: boolean): PgFunction | undefined {
    const rowOf = `${table.schema}.${table.name}`
    return this.cache.functions
      .get(`${table.schema}.${name}`)
      ?.find((fn) => fn.rowArg === rowOf && (fn.returnTable !== null) === rows)
  }

  private embed(embed: Embed, source: Source, built: Built): EmbedInfo {
    if (!source.table) {
      throw new ApiError(
        400,
        'PGRST200',
        `Could not find a relationship between '${source.label}' and '${embed.name}' in the schema cache`,
      )
    }
    const fn = embed.hint ? undefined : this.computed(source.table, embed.name, true)
    const rel: Relationship =
      fn && fn.returnTable
        ? {
            target: fn.returnTable,
            toOne: !fn.returnsSet || fn.rows === 1,
            pairs: [],
            junction: null,
          }
        : findRelationship(this.cache, source.table, embed.name, embed.hint)
    const c = this.alias()
    const child: Source = {
      from: fn
        ? `${tableSql(fn.schema, fn.name)}(${source.alias}) ${c}`
        : `${tableSql(rel.target.schema, rel.target.name)} ${c}`,
      alias: c,
      table: rel.target,
      label: rel.target.name,
    }
    const inner = this.node(embed.node, child)
    let from = child.from
    let link: string[]
    if (rel.junction) {
      const j = this.alias('j')
      const { table, parentPairs, childPairs } = rel.junction
      const on = childPairs.map(([jc, cc]) => `${j}.${ident(jc)} = ${c}.${ident(cc)}`)
      from += ` join ${tableSql(table.schema, table.name)} ${j} on ${on.join(' and ')}`
      link = parentPairs.map(([pc, jc]) => `${j}.${ident(jc)} = ${source.alias}.${ident(pc)}`)
    } else {
      link = linkConditions(rel, source.alias, c)
    }
    const sub = [
      `select ${inner.columns.join(', ') || 'null'} from ${from} ${inner.joins.join(' ')}`,
      whereSql([...link, ...inner.where]),
      inner.groupBy.length ? `group by ${inner.groupBy.join(', ')}` : '',
      inner.orderBy.length ? `order by ${inner.orderBy.join(', ')}` : '',
      embed.node.limit !== null ? `limit ${embed.node.limit}` : rel.toOne ? 'limit 1' : '',
      embed.node.offset !== null ? `offset ${embed.node.offset}` : '',
    ].join(' ')
    const e = this.alias('e')
    const value = rel.toOne ? 'to_json(_x)' : `coalesce(json_agg(_x), '[]')`
    const join = `left join lateral (select ${value} as v from (${sub}) _x) ${e} on true`
    const present = rel.toOne ? `${e}.v is not null` : `json_array_length(${e}.v) > 0`
    built.joins.push(join)
    if (embed.inner) {
      built.where.push(present)
      built.filterJoins.push(join)
    }
    const label = embed.alias ?? embed.name
    if (!embed.spread && embed.node.select.length > 0) {
      built.columns.push(`${e}.v as ${ident(label)}`)
      built.labels?.push(label)
    } else if (embed.spread) {
      for (const key of inner.labels ?? []) {
        const sql = rel.toOne
          ? `${e}.v->${jsonKey(key)}`
          : `(select coalesce(json_agg(_s->${jsonKey(key)}), '[]') from json_array_elements(${e}.v) _s)`
        built.columns.push(`${sql} as ${ident(key)}`)
        built.labels?.push(key)
      }
    }
    return { alias: e, rel, join, present }
  }

  private orderTerm(term: OrderTerm, source: Source, embeds: Map<string, EmbedInfo>): string {
    let sql: string
    if (term.relation) {
      const info = embeds.get(term.relation)
      if (!info || !info.rel.toOne || info.rel.junction) {
        throw new ApiError(
          400,
          'PGRST108',
          `'${term.relation}' is not an embedded resource in this request`,
          null,
          `Verify that '${term.relation}' is included in the 'select' query parameter.`,
        )
      }
      const target = info.rel.target
      const c = this.alias()
      const child: Source = { from: '', alias: c, table: target, label: target.name }
      const where = linkConditions(info.rel, source.alias, c).join(' and ')
      sql = `(select ${this.field(child, term.field)} from ${tableSql(target.schema, target.name)} ${c} where ${where} limit 1)`
    } else {
      sql = this.field(source, term.field)
    }
    const nulls = term.nulls ? ` nulls ${term.nulls}` : ''
    return `${sql} ${term.desc ? 'desc' : 'asc'}${nulls}`
  }
}

function linkConditions(rel: Relationship, parent: string, child: string): string[] {
  return rel.pairs.map(([pc, cc]) => `${child}.${ident(cc)} = ${parent}.${ident(pc)}`)
}
