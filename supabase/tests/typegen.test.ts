import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { generateTypes } from '../../scripts/gen-types/render.ts'

const root = new URL('../..', import.meta.url).pathname

describe('type generator', () => {
  // The web app's Database type must match the migrations; regenerate with
  // `node scripts/gen-types.ts` after changing the schema.
  it('apps/web/src/lib/database.types.ts is generated from the current migrations', async () => {
    const run = promisify(execFile)(process.execPath, ['scripts/gen-types.ts', '--check'], {
      cwd: root,
    })
    await expect(run).resolves.toMatchObject({ stderr: '' })
  }, 120_000)

  it('renders enums, arrays, identities, generated columns, views and function shapes', async () => {
    const text = await generateTypes(
      new URL('./fixtures/typegen', import.meta.url).pathname,
      `${root}apps/web/src/lib/database.types.ts`,
    )
    // Compare token streams: prettier decides line breaks, semicolons and commas.
    const squash = (code: string) => code.replace(/[;,\s]+/g, ' ')
    const types = squash(text)
    for (const expected of [
      // Row: nullability and mapped types; enums by reference.
      "status: Database['public']['Enums']['status']",
      'tags: string[]',
      'meta: Json | null',
      'title_length: number | null',
      // Insert: identity, defaults and nullable columns optional; generated ones never.
      'id?: never meta?: Json | null score?: number | null',
      'tags?: string[] title: string title_length?: never',
      // Quoted keys, views without Insert/Update, one-to-one relationships.
      "Insert: { 'body text'?: string | null; item_id: number }",
      'ready_items: { Row: { id: number | null; title: string | null }; Relationships: [] }',
      "foreignKeyName: 'item_details_item_id_fkey' columns: ['item_id'] isOneToOne: true",
      // Functions: optional defaulted args, setof scalars, void, returns table.
      'count_items: { Args: { min_score?: number }; Returns: number }',
      'item_titles: { Args: never; Returns: string[] }',
      'touch: { Args: { item_id: number; flag: boolean }; Returns: undefined }',
      'search: { Args: { query: string }; Returns: { id: number; rank: number }[] }',
      "Enums: { status: 'queued' | 'ready' | 'failed' }",
      "Enums: { status: ['queued', 'ready', 'failed'] }",
    ]) {
      expect(types).toContain(squash(expected))
    }
  }, 120_000)
})
