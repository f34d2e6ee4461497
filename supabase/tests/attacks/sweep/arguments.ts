import type { Argument, PgFunction } from './catalog.ts'
import type { Seeded } from './seed.ts'

type Args = Record<string, unknown>

/** What a caller who knows the workspace's ids (not its secrets) might pass. */
export type Known = { seeded: Seeded; probe: string }

/** The id a parameter's name points at, or the workspace's. */
function idFor(name: string, { seeded }: Known): string {
  const { ids } = seeded
  if (/conversation/i.test(name)) return seeded.conversationId
  if (/message/i.test(name)) return seeded.messageIds.at(-1)!
  if (/invitation/i.test(name)) return seeded.invitationId
  if (/document|new_id/i.test(name)) return seeded.documentId
  if (/chunk/i.test(name)) return ids['chunk 0'] ?? seeded.documentId
  if (/user|owner|member|profile/i.test(name)) return seeded.owner.id
  return seeded.workspaceId
}

/** A value of the parameter's type, chosen by its name where that says more. */
function valueFor(arg: Argument, known: Known, id: (name: string) => string): unknown {
  const { name, type } = arg
  const base = type.replace(/\[\]$/, '')
  const list = type.endsWith('[]')
  let value: unknown
  if (base === 'uuid') value = id(name)
  else if (/^(smallint|integer|bigint|numeric|real|double precision)$/.test(base)) value = 5
  else if (base === 'boolean') value = true
  else if (/^jsonb?$/.test(base)) value = {}
  else if (/^timestamp/.test(base) || base === 'date') value = new Date().toISOString()
  else if (/^(text|character varying|citext|name|tsquery|tsvector)$/.test(base)) {
    if (/email/i.test(name)) value = known.seeded.owner.email
    else if (/topic/i.test(name)) value = `conversation:${known.seeded.conversationId}`
    else if (/path|^name$/i.test(name)) value = known.seeded.storagePath
    else if (/role/i.test(name)) value = 'viewer'
    else value = known.probe
  } else value = null
  return list && value !== null ? [value] : value
}

/**
 * The argument sets to call `fn` with: every parameter filled by its name; every uuid set to
 * each of the workspace's ids in turn; only the parameters without defaults; all nulls.
 */
export function argumentSets(fn: PgFunction, known: Known): Args[] {
  const fill = (args: Argument[], id: (name: string) => string) =>
    Object.fromEntries(args.map((a) => [a.name, valueFor(a, known, id)]))
  const named = fn.args.filter((a) => a.name !== '')
  const sets: Args[] = [fill(named, (name) => idFor(name, known))]
  if (named.some((a) => a.type.startsWith('uuid'))) {
    for (const id of new Set(Object.values(known.seeded.ids))) sets.push(fill(named, () => id))
  }
  sets.push(
    fill(
      named.filter((a) => !a.hasDefault),
      (name) => idFor(name, known),
    ),
  )
  sets.push(Object.fromEntries(named.map((a) => [a.name, null])))
  const unique = new Map(sets.map((args) => [JSON.stringify(args), args]))
  return [...unique.values()]
}
