import type { Stack } from '../../stack.ts'
import { exposedRelations } from './catalog.ts'

/**
 * A digest, per table, of every row that names one of `needles` (the workspace's and its
 * owner's ids), read as the database owner: in the exposed schemas and in Storage. Equal
 * digests before and after a batch of calls mean those calls changed none of those rows.
 */
export async function snapshot(stack: Stack, needles: string[]): Promise<Record<string, string>> {
  const tables = (await exposedRelations(stack))
    .filter((r) => r.kind === 'table')
    .map((r) => `"${r.schema}"."${r.name}"`)
  tables.push('storage.objects', 'storage.buckets')
  const digest: Record<string, string> = {}
  for (const table of tables) {
    const { rows } = await stack.db.pg.query<{ n: number; md5: string | null }>(
      `select count(*)::int as n, md5(string_agg(t::text, '|' order by t::text)) as md5
       from ${table} t where t::text like any($1)`,
      [needles.map((needle) => `%${needle}%`)],
    )
    digest[table] = `${rows[0]!.n} ${rows[0]!.md5}`
  }
  return digest
}
