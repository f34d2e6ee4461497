import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Stack } from '../../stack.ts'

// What the API exposes, read from the database's catalog and the project's files at test
// time, so that a table, function, bucket, channel or Edge Function added later is swept
// without editing the sweep.

const repo = new URL('../../../../', import.meta.url).pathname

export type Relation = {
  schema: string
  name: string
  kind: 'table' | 'view' | 'materialized view'
}
export type Argument = { name: string; type: string; hasDefault: boolean }
export type PgFunction = { schema: string; name: string; args: Argument[]; volatile: boolean }
/**
 * A realtime topic the web app joins, with `${…}` already filled in: whether it joins it as a
 * private channel, and whether people talk there (broadcast or presence) or only listen to
 * postgres_changes.
 */
export type Topic = { template: string; topic: string; isPrivate: boolean; talk: boolean }

const kinds = { r: 'table', p: 'table', v: 'view', m: 'materialized view' } as const

/** Tables, views and materialized views in the schemas the API exposes. */
export async function exposedRelations(stack: Stack): Promise<Relation[]> {
  const { rows } = await stack.db.pg.query<{ schema: string; name: string; kind: string }>(
    `select n.nspname as schema, c.relname as name, c.relkind::text as kind
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any($1) and c.relkind in ('r', 'p', 'v', 'm')
     order by 1, 2`,
    [stack.config.api.schemas],
  )
  return rows.map((r) => ({ ...r, kind: kinds[r.kind as keyof typeof kinds] }))
}

/** Tables in the exposed schemas without row-level security. */
export async function tablesWithoutRls(stack: Stack): Promise<string[]> {
  const { rows } = await stack.db.pg.query<{ name: string }>(
    `select n.nspname || '.' || c.relname as name
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any($1) and c.relkind in ('r', 'p') and not c.relrowsecurity`,
    [stack.config.api.schemas],
  )
  return rows.map((r) => r.name)
}

/** Every function in the exposed schemas, with its input parameters as RPC names them. */
export async function exposedFunctions(stack: Stack): Promise<PgFunction[]> {
  const { rows } = await stack.db.pg.query<{
    schema: string
    name: string
    volatile: boolean
    defaults: number
    args: { name: string; type: string }[]
  }>(
    `select n.nspname as schema, p.proname as name, p.provolatile = 'v' as volatile,
       p.pronargdefaults as defaults,
       coalesce((
         select json_agg(json_build_object('name', coalesce(p.proargnames[a.i], ''),
                                           'type', format_type(a.t, null)) order by a.i)
         from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality a(t, i)
         where coalesce(p.proargmodes[a.i], 'i') in ('i', 'b', 'v')
       ), '[]') as args
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = any($1) and p.prokind = 'f'
     order by 1, 2`,
    [stack.config.api.schemas],
  )
  return rows.map(({ args, defaults, ...fn }) => ({
    ...fn,
    args: args.map((a, i) => ({ ...a, hasDefault: i >= args.length - defaults })),
  }))
}

/** Every bucket, public or not. */
export async function buckets(stack: Stack): Promise<string[]> {
  const { rows } = await stack.db.pg.query<{ id: string }>(
    'select id from storage.buckets order by id',
  )
  return rows.map((r) => r.id)
}

/** The tables whose changes Realtime publishes. */
export async function publishedTables(stack: Stack): Promise<{ schema: string; name: string }[]> {
  const { rows } = await stack.db.pg.query<{ schema: string; name: string }>(
    `select schemaname as schema, tablename as name from pg_publication_tables
     where pubname = 'supabase_realtime' order by 1, 2`,
  )
  return rows
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : []
  })
}

/**
 * The topics the web app's `.channel(…)` calls join, each `${expression}` replaced by the id
 * its name points at (`conversationId` → the conversation…; anything else → the workspace),
 * read with the options and listeners chained up to its `.subscribe(`.
 */
export function appTopics(ids: Record<'workspace' | 'document' | 'conversation', string>): Topic[] {
  const topics = new Map<string, Topic>()
  for (const file of sourceFiles(join(repo, 'apps/web/src'))) {
    const source = readFileSync(file, 'utf8')
    for (const match of source.matchAll(/\.channel\(\s*(?:\w+\()?\s*`([^`]+)`/g)) {
      const template = match[1]!
      const chain = source.slice(match.index, source.indexOf('.subscribe(', match.index))
      topics.set(template, {
        template,
        topic: template.replace(/\$\{([^}]+)\}/g, (_, expression: string) =>
          /conversation/i.test(expression)
            ? ids.conversation
            : /document/i.test(expression)
              ? ids.document
              : ids.workspace,
        ),
        isPrivate: /private:\s*true/.test(chain),
        talk: /'(broadcast|presence)'/.test(chain),
      })
    }
  }
  return [...topics.values()]
}

/** The project's Edge Functions (folders with an index.ts). */
export function edgeFunctions(): string[] {
  const dir = join(repo, 'supabase/functions')
  return readdirSync(dir).filter(
    (name) =>
      !name.startsWith('_') && statSync(join(dir, name, 'index.ts'), { throwIfNoEntry: false }),
  )
}
