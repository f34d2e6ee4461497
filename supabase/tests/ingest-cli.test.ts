import { type ChildProcess, spawn } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../../packages/localbase/src/index.ts'
import { sharedData } from '../../packages/core/src/testing/shared-data.ts'
import { adminClient, startStack } from './stack.ts'
import { createPeople, createWorld } from './world.ts'

const stack = await startStack()
const folder = mkdtempSync(join(tmpdir(), 'sourcebook-import-'))
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true })
  await stack.stop()
})

const script = fileURLToPath(new URL('../../scripts/import.ts', import.meta.url))
const email = `importer.${Date.now()}@example.test`
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
  mkdirSync(join(folder, 'notes/deeper'), { recursive: true })
  copyFileSync(
    new URL('financebench-pdfs/AMCOR_2022_8K_dated-2022-07-01.pdf', sharedData),
    join(folder, 'amcor.pdf'),
  )
  writeFileSync(join(folder, 'notes/readme.md'), '# Readme\n\nThe importer walks folders.\n')
  writeFileSync(join(folder, 'notes/deeper/plain.txt'), 'Plain text, one line.\n')
  writeFileSync(join(folder, 'notes/table.csv'), 'name,amount\nwidgets,12\n')
  writeFileSync(join(folder, 'bad.pdf'), 'not a pdf at all\n')
  writeFileSync(join(folder, 'picture.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47]))
  writeFileSync(join(folder, '.hidden.txt'), 'hidden\n')
})

function runImporter(
  args: string[],
  env: Record<string, string> = {},
  whileRunning?: (child: ChildProcess) => Promise<void>,
) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, SOURCEBOOK_EMAIL: email, SOURCEBOOK_PASSWORD: password, ...env },
    })
    void whileRunning?.(child)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (data) => (stdout += data))
    child.stderr.on('data', (data) => (stderr += data))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

const common = () => ['--url', stack.url, '--key', DEFAULT_ANON_KEY, '--workspace', workspaceId]

async function documents() {
  const { rows } = await stack.db.pg.query<{
    file_name: string
    title: string
    status: string
    error: string
  }>(
    `select file_name, title, status, error from public.documents
     where workspace_id = $1 order by file_name`,
    [workspaceId],
  )
  return rows
}

describe('npm run import', () => {
  it('imports a folder recursively, skips unsupported files, reports failures, exits 1', async () => {
    const { code, stdout } = await runImporter([...common(), folder])
    expect(stdout).toMatch(/Skipping 1 unsupported: picture\.png/)
    expect(stdout).toMatch(/\[5\/5\] 12 pages, \d+ chunks, 0 duplicates, 1 failed/)
    expect(stdout).toMatch(
      /Imported 4 of 5 files in [\d.]+ s: 12 pages, \d+ chunks, [\d.]+ pages\/s/,
    )
    expect(stdout).toMatch(/failures: {3}1\n {4}bad\.pdf: .*text/)
    expect(stdout).toMatch(/skipped \(unsupported type\): 1\n {4}picture\.png/)
    expect(code).toBe(1)
    // bad.pdf is refused from its first bytes (text named .pdf): no row, no object.
    expect(await documents()).toEqual([
      // Titled by the file name made readable, the file name kept beside it.
      { file_name: 'amcor.pdf', title: 'Amcor', status: 'ready', error: null },
      { file_name: 'plain.txt', title: 'Plain', status: 'ready', error: null },
      { file_name: 'readme.md', title: 'Readme', status: 'ready', error: null },
      { file_name: 'table.csv', title: 'Table', status: 'ready', error: null },
    ])
  })

  it('a second run finds duplicates and exits 0 when nothing failed', async () => {
    rmSync(join(folder, 'bad.pdf'))
    const { code, stdout } = await runImporter([...common(), folder])
    expect(stdout).toMatch(/Imported 0 of 4 files/)
    expect(stdout).toMatch(/duplicates: 4 \(/)
    expect(stdout).toMatch(/failures: {3}0/)
    expect(code).toBe(0)
    expect(await documents()).toHaveLength(4)
  })

  it('Ctrl-C marks the files in flight cancelled, prints the summary and exits 1', async () => {
    const slow = mkdtempSync(join(tmpdir(), 'sourcebook-import-slow-'))
    copyFileSync(
      new URL('financebench-pdfs/AMERICANEXPRESS_2022_10K.pdf', sharedData),
      join(slow, 'amex.pdf'),
    )
    writeFileSync(join(slow, 'later.txt'), 'Started after the big one.\n')
    try {
      const { code, stdout } = await runImporter([...common(), slow], {}, async (child) => {
        // Interrupt once the big file's row exists (it is being extracted by then).
        while ((await documents()).every((d) => d.file_name !== 'amex.pdf')) {
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        child.kill('SIGINT')
      })
      expect(code).toBe(1)
      expect(stdout).toMatch(/^ {4}amex\.pdf: cancelled$/m)
      const amex = (await documents()).find((d) => d.file_name === 'amex.pdf')
      expect(amex).toMatchObject({ status: 'failed', error: 'cancelled' })
      const { rows } = await stack.db.pg.query(
        `select 1 from public.chunks c join public.documents d on d.id = c.document_id
         where d.file_name = 'amex.pdf'`,
      )
      expect(rows).toEqual([])
    } finally {
      rmSync(slow, { recursive: true, force: true })
    }
  })

  it('exits 2 with a message on bad usage or a failed sign-in', async () => {
    const missing = await runImporter(['--url', stack.url, folder])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/usage: npm run import/)
    const wrong = await runImporter([...common(), folder], { SOURCEBOOK_PASSWORD: 'wrong-one' })
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toMatch(/sign-in failed: Invalid login credentials/)
    for (const workspace of [crypto.randomUUID(), 'not-a-uuid']) {
      const args = ['--url', stack.url, '--key', DEFAULT_ANON_KEY, '--workspace', workspace]
      const unknown = await runImporter([...args, folder])
      expect(unknown.code).toBe(2)
      expect(unknown.stderr).toContain(
        `workspace ${workspace} not found, or ${email} is not a member`,
      )
    }
  })

  it('refuses a viewer before reading any file', async () => {
    await stack.db.pg.query(
      `update public.workspace_members set role = 'viewer'
       where workspace_id = $1 and user_id = (select id from auth.users where email = $2)`,
      [workspaceId, email],
    )
    const before = await documents()
    const { code, stderr } = await runImporter([...common(), folder])
    expect(code).toBe(2)
    expect(stderr).toContain(`${email} is a viewer of this workspace`)
    expect(await documents()).toEqual(before)
  })
})
