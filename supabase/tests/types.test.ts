import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const root = new URL('../..', import.meta.url).pathname

// The web app's Database type must match the migrations; regenerate with
// `node scripts/gen-types.ts` after changing the schema.
it('apps/web/src/lib/database.types.ts is generated from the current migrations', async () => {
  const run = promisify(execFile)(process.execPath, ['scripts/gen-types.ts', '--check'], {
    cwd: root,
  })
  await expect(run).resolves.toMatchObject({ stderr: '' })
}, 120_000)
