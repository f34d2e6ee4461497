import { ApiError } from './errors.ts'
import type { ForeignKey, SchemaCache, Table } from './schema-cache.ts'

// Finding the relationship behind an embed, as PostgREST does (docs: resource embedding).

type Pair = [parent: string, child: string]

export type Relationship = {
  target: Table
  toOne: boolean
  /** Parent column = child column, for direct links. */
  pairs: Pair[]
  /** For many-to-many: parent = junction, then junction = child. */
  junction: { table: Table; parentPairs: Pair[]; childPairs: Pair[] } | null
}

type Candidate = Relationship & {
  cardinality: string
  description: string
  hintNames: string[]
  key: string
}

const zip = (a: string[], b: string[]): Pair[] => a.map((x, i) => [x, b[i] ?? x])
const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x))
const isUnique = (table: Table, cols: string[]) => table.uniques.some((u) => sameSet(u, cols))
const list = (cols: string[]) => cols.join(', ')

function direct(parent: Table, fk: ForeignKey, outgoing: boolean): Candidate {
  const child = outgoing ? fk.to : fk.from
  const oneToOne = outgoing ? false : isUnique(fk.from, fk.cols)
  const toOne = outgoing || oneToOne
  const [pCols, cCols] = outgoing ? [fk.cols, fk.toCols] : [fk.toCols, fk.cols]
  return {
    target: child,
    toOne,
    pairs: zip(pCols, cCols),
    junction: null,
    cardinality:
      oneToOne || (outgoing && isUnique(fk.from, fk.cols))
        ? 'one-to-one'
        : outgoing
          ? 'many-to-one'
          : 'one-to-many',
    description: `${fk.name} using ${parent.name}(${list(pCols)}) and ${child.name}(${list(cCols)})`,
    hintNames: [fk.name, ...fk.cols, ...fk.toCols],
    key: fk.name,
  }
}

function manyToMany(junction: Table, toParent: ForeignKey, toChild: ForeignKey): Candidate {
  return {
    target: toChild.to,
    toOne: false,
    pairs: [],
    junction: {
      table: junction,
      parentPairs: zip(toParent.toCols, toParent.cols),
      childPairs: zip(toChild.cols, toChild.toCols),
    },
    cardinality: 'many-to-many',
    description: `${junction.name} using ${toParent.name}(${list(toParent.cols)}) and ${toChild.name}(${list(toChild.cols)})`,
    hintNames: [junction.name, toParent.name, toChild.name],
    key: junction.name,
  }
}

function candidates(cache: SchemaCache, parent: Table, name: string): Candidate[] {
  const found: Candidate[] = []
  const inSchema = (t: Table) => t.schema === parent.schema
  for (const fk of cache.foreignKeys) {
    const byKey = fk.name === name && !fk.viaView
    // A table embedding itself by name means its children, as in PostgREST.
    const toTarget = fk.to.name === name && fk.from !== fk.to
    if (
      fk.from === parent &&
      inSchema(fk.to) &&
      (toTarget || byKey || (!fk.viaView && sameSet(fk.cols, [name])))
    ) {
      found.push(direct(parent, fk, true))
    }
    if (fk.to === parent && (fk.from.name === name || byKey) && inSchema(fk.from)) {
      found.push(direct(parent, fk, false))
    }
  }
  for (const toParent of cache.foreignKeys) {
    if (toParent.to !== parent || !inSchema(toParent.from)) continue
    const junction = toParent.from
    if (!toParent.cols.every((c) => junction.primaryKey.includes(c))) continue
    for (const toChild of cache.foreignKeys) {
      if (toChild.from !== junction || toChild === toParent || toChild.to.name !== name) continue
      if (!toChild.cols.every((c) => junction.primaryKey.includes(c))) continue
      found.push(manyToMany(junction, toParent, toChild))
    }
  }
  return found
}

/** Resolves `name!hint` from `parent`; PGRST200 when nothing matches, PGRST201 when ambiguous. */
export function findRelationship(
  cache: SchemaCache,
  parent: Table,
  name: string,
  hint: string | null,
): Relationship {
  const all = candidates(cache, parent, name)
  const matching = hint ? all.filter((c) => c.hintNames.includes(hint)) : all
  const [only] = matching
  if (only && matching.length === 1) return only
  if (matching.length === 0) {
    const target = hint ? `${name}' using the hint '${hint}` : name
    throw new ApiError(
      400,
      'PGRST200',
      `Could not find a relationship between '${parent.name}' and '${name}' in the schema cache`,
      `Searched for a foreign key relationship between '${parent.name}' and '${target}' in the schema '${parent.schema}', but no matches were found.`,
    )
  }
  throw new ApiError(
    300,
    'PGRST201',
    `Could not embed because more than one relationship was found for '${parent.name}' and '${name}'`,
    matching.map((c) => ({
      cardinality: c.cardinality,
      embedding: `${parent.name} with ${name}`,
      relationship: c.description,
    })),
    `Try changing '${name}' to one of the following: ${matching.map((c) => `'${name}!${c.key}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
  )
}
