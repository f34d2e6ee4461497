import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient, FunctionsHttpError } from '@supabase/supabase-js'
import { afterAll, describe, expect, it } from 'vitest'
import {
  defaultDenoDir,
  denoCommand,
  entryOf,
} from '../../packages/localbase/src/functions/deno.ts'
import { DEFAULT_ANON_KEY, startLocalbase } from '../../packages/localbase/src/index.ts'
import { copyDir, readCopy, renderCopy } from '../../scripts/sync-core/copy.ts'

// The Supabase CLI deploys what it finds under supabase/functions (its API deploy cannot read
// imports outside the project: supabase/cli#3467). So `supabase/`, copied by itself, must
// type-check and run: the functions reach packages/core through its generated copy.
const root = new URL('../..', import.meta.url).pathname
const scratch = mkdtempSync(join(tmpdir(), 'sourcebook-standalone-'))
const project = join(scratch, 'project')
cpSync(join(root, 'supabase'), join(project, 'supabase'), {
  recursive: true,
  filter: (path) => !/\/supabase\/(tests|node_modules|\.env$|functions\/\.env$)/.test(path),
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const functionsDir = join(project, 'supabase', 'functions')
const functions = readdirSync(functionsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !/^[._]/.test(entry.name))
  .map((entry) => entry.name)

describe('supabase/ on its own', () => {
  it("holds packages/core's current sources, as npm run sync:core writes them", () => {
    const wanted = renderCopy(root)
    const current = readCopy(root)
    expect([...current.keys()].sort(), `${copyDir}: run npm run sync:core`).toEqual(
      [...wanted.keys()].sort(),
    )
    for (const [path, text] of wanted) {
      expect(current.get(path), `${copyDir}/${path}: run npm run sync:core`).toBe(text)
    }
  })

  it.each(functions)(
    'type-checks the %s function with its own deno.json only',
    (name) => {
      const entry = entryOf(join(functionsDir, name))
      expect(entry).not.toBeNull()
      const config = join(functionsDir, name, 'deno.json')
      const deno = denoCommand()
      const result = spawnSync(
        deno.file,
        [
          ...deno.args,
          'check',
          '--no-lock',
          ...(existsSync(config) ? ['--config', config] : ['--no-config']),
          entry!,
        ],
        {
          cwd: project,
          encoding: 'utf8',
          env: {
            ...process.env,
            DENO_DIR: process.env.DENO_DIR || defaultDenoDir(),
            NO_COLOR: '1',
          },
        },
      )
      expect(result.stderr).not.toMatch(/Module not found|error:/)
      expect(result.status).toBe(0)
    },
    120_000,
  )

  it('boots there: the chat function, which imports core, answers its own 400', async () => {
    const lb = await startLocalbase({
      workdir: project,
      port: 0,
      dataDir: join(scratch, 'data'),
      env: { ...process.env, PORT: '', HOST: '', DATA_DIR: '' },
    })
    try {
      const client = createClient(lb.url, DEFAULT_ANON_KEY, { auth: { persistSession: false } })
      const { error } = await client.functions.invoke('chat', { body: {} })
      expect(error).toBeInstanceOf(FunctionsHttpError)
      const response = (error as FunctionsHttpError).context as Response
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'invalid_input' })
    } finally {
      await lb.stop()
    }
  }, 180_000)
})
