// Regenerates apps/web/src/lib/database.types.ts from supabase/migrations, in the shape
// `supabase gen types typescript` produces, so createClient<Database>() types every
// table, view, function and enum of the exposed `public` schema.
// Usage: node scripts/gen-types.ts [--check]   (--check fails when the file is stale)
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { generateTypes } from './gen-types/render.ts'

const root = new URL('..', import.meta.url).pathname
const target = join(root, 'apps/web/src/lib/database.types.ts')

const text = await generateTypes(root, target)
if (process.argv.includes('--check')) {
  if (readFileSync(target, 'utf8') !== text) {
    console.error(`${target} is stale: run node scripts/gen-types.ts`)
    process.exitCode = 1
  }
} else {
  writeFileSync(target, text)
  console.log(`wrote ${target}`)
}
