import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../../packages/localbase/src/index.ts'
import { adminClient, startStack } from './stack.ts'
import { createPeople, createWorld } from './world.ts'

// `npm run import -- --collection NAME`: the importer, as a real process, puts what it
// imports into a collection, found by name or created.
const stack = await startStack()
const folder = mkdtempSync(join(tmpdir(), 'sourcebook-import-collection-'))
afterAll(async () => {
  await stack.stop()
  rmSync(folder, { recursive: true, force: true })
})

const script = fileURLToPath(new URL('../../scripts/import.ts', import.meta.url))
const email = `collector.${Date.now()}@example.test`
const password = 'import-password-1'
let workspaceId: string

beforeAll(async () => {
  workspaceId = (await createWorld(stack, await createPeople(stack))).workspaceId
  const { data, error } = await adminClient(stack).auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  })
  if (error) throw error
  await stack.db.pg.query(
    `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'editor')`,
    [workspaceId, data.user.id],
  )
  mkdirSync(join(folder, 'minutes'))
  writeFileSync(join(folder, 'minutes/2023.md'), '# 2023\n\nThe board met four times.\n')
  writeFileSync(join(folder, 'minutes/2024.md'), '# 2024\n\nThe board met twice.\n')
})

function runImporter(args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [script, '--url', stack.url, '--key', DEFAULT_ANON_KEY, '--workspace', workspaceId, ...args],
      { env: { ...process.env, SOURCEBOOK_EMAIL: email, SOURCEBOOK_PASSWORD: password } },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (data) => (stdout += data))
    child.stderr.on('data', (data) => (stderr += data))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

async function members(name: string) {
  const { rows } = await stack.db.pg.query<{ file_name: string }>(
    `select d.file_name from public.collection_documents cd
     join public.collections c on c.id = cd.collection_id
     join public.documents d on d.id = cd.document_id
     where c.workspace_id = $1 and c.name = $2 order by d.file_name`,
    [workspaceId, name],
  )
  return rows.map((r) => r.file_name)
}

describe('npm run import -- --collection', () => {
  it('creates the collection when missing and puts every imported file in it', async () => {
    const { code, stdout } = await runImporter(['--collection', 'Board minutes', folder])
    expect(stdout).toMatch(/Imported 2 of 2 files/)
    expect(code).toBe(0)
    expect(await members('Board minutes')).toEqual(['2023.md', '2024.md'])
  })

  it('finds an existing collection by name, whatever its case, and adds duplicates too', async () => {
    const { rows } = await stack.db.pg.query<{ id: string }>(
      `insert into public.collections (workspace_id, name) values ($1, 'Archive') returning id`,
      [workspaceId],
    )
    const { code, stdout } = await runImporter(['--collection', ' archive ', folder])
    expect(stdout).toMatch(/duplicates: 2/)
    expect(code).toBe(0)
    expect(await members('Archive')).toEqual(['2023.md', '2024.md'])
    const { rows: all } = await stack.db.pg.query(
      'select id from public.collections where workspace_id = $1',
      [workspaceId],
    )
    expect(all).toHaveLength(2)
    expect(all).toContainEqual({ id: rows[0]!.id })
  })

  it('refuses an empty name with the usage', async () => {
    const { code, stderr } = await runImporter(['--collection', '  ', folder])
    expect(code).toBe(2)
    expect(stderr).toMatch(/--collection needs a name/)
  })
})
