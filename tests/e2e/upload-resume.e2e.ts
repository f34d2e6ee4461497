import type { SupabaseClient } from '@supabase/supabase-js'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signIn } from './support/app.ts'
import { seriousViolations } from './support/axe.ts'
import { signedUpClient } from './support/accounts.ts'
import { launchBrowser, newPage, screenshot } from './support/browser.ts'
import { stallImport } from '../../supabase/tests/ingest-helpers.ts'
import { startStack } from './support/stack.ts'

// An import whose heartbeat stopped is interrupted, judged by the database's clock whatever
// the browser's says, and the same file uploaded again resumes it, in those words.
describe('an interrupted upload, resumed', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let browser: Browser
  let db: SupabaseClient
  let library = ''
  const file = {
    name: 'minutes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Minutes of the harbour committee.\n'.repeat(400)),
  }
  const devices = {
    desktop: { width: 1280, height: 800 },
    phone: { width: 390, height: 844 },
  }

  /** As an import that died leaves its row: processing, silent for `seconds` by the database. */
  const stall = (id: string, seconds: number) => stallImport(stack, id, seconds)

  async function signedIn(viewport: { width: number; height: number }, clockAheadMs = 0) {
    const page = await newPage(browser, { viewport })
    // This browser's clock, minutes off the database's.
    if (clockAheadMs) await page.clock.install({ time: Date.now() + clockAheadMs })
    await page.goto(`${stack.url}/sign-in`)
    await signIn(page, 'rosa@example.com')
    await page.waitForURL((url) => url.pathname !== '/sign-in')
    return page
  }

  const rowOf = (page: Page, title: string) =>
    page.getByRole('row', { name: new RegExp(title.replace('.', '\\.')) })

  beforeAll(async () => {
    stack = await startStack()
    db = await signedUpClient(stack.url, 'Rosa Editor', 'rosa@example.com')
    const { data, error } = await db.from('workspaces').insert({ name: 'Harbour' }).select('id')
    if (error) throw error
    library = `${stack.url}/w/${data[0]!.id}/library`
    browser = await launchBrowser()
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  })

  it('says Resume and "Resumed the interrupted upload", not a retry of a failed one', async () => {
    let id = ''
    for (const [device, viewport] of Object.entries(devices)) {
      const page = await signedIn(viewport)
      await page.goto(library)
      if (!id) {
        await page.getByLabel('Upload files').setInputFiles(file)
        await rowOf(page, 'minutes.txt').getByText('Ready').waitFor({ timeout: 60_000 })
        const { data } = await db.from('documents').select('id').eq('file_name', 'minutes.txt')
        id = data![0]!.id as string
      }
      await stall(id, 90)
      await page.reload()
      const row = rowOf(page, 'minutes.txt')
      await row.getByText('Interrupted').waitFor()
      // An interrupted import is taken up where it stopped: Resume, not Retry.
      await row.getByRole('button', { name: 'Resume Minutes' }).waitFor()
      expect(await row.getByRole('button', { name: /^Retry/ }).count()).toBe(0)
      await screenshot(page, `upload-interrupted-${device}`)
      await page.emulateMedia({ colorScheme: 'dark' })
      await screenshot(page, `upload-interrupted-${device}-dark`)
      await page.emulateMedia({ colorScheme: 'light' })

      await page.getByLabel('Upload files').setInputFiles(file)
      const uploads = page.getByRole('region', { name: 'Uploads' })
      await uploads
        .getByText('Resumed the interrupted upload: ready', { exact: false })
        .waitFor({ timeout: 60_000 })
      expect(await uploads.getByText(/failed upload/).count()).toBe(0)
      // Shown for a few seconds before it folds into "1 uploaded": taken at once.
      await page.emulateMedia({ colorScheme: 'dark' })
      await screenshot(page, `upload-resumed-${device}-dark`)
      await page.emulateMedia({ colorScheme: 'light' })
      await screenshot(page, `upload-resumed-${device}`)
      expect(await seriousViolations(page)).toEqual([])
      await page.context().close()
    }
    // Resumed under its id both times: one document, ready.
    const { data } = await db.from('documents').select('id, status').eq('file_name', 'minutes.txt')
    expect(data).toEqual([{ id, status: 'ready' }])
  }, 240_000)

  it('judges the heartbeat by the database’s clock, the browser’s ten minutes off', async () => {
    const add = async (title: string) => {
      const { data, error } = await db
        .from('documents')
        .insert({
          workspace_id: new URL(library).pathname.split('/')[2],
          title,
          file_name: `${title}.txt`,
          status: 'processing',
          stage: 'indexing',
          progress: 0.5,
        })
        .select('id')
        .single()
      if (error) throw error
      return data.id as string
    }
    // Written just now by the database: live.
    await add('Live import')
    await stall(await add('Stopped import'), 90)
    for (const [clock, aheadMs] of [
      ['fast', 10 * 60_000],
      ['slow', -10 * 60_000],
    ] as const) {
      const page = await signedIn(devices.desktop, aheadMs)
      await page.goto(library)
      await rowOf(page, 'Stopped import').getByText('Interrupted').waitFor()
      const live = rowOf(page, 'Live import')
      await live.getByText(/Indexing/).waitFor()
      expect(await live.getByText('Interrupted').count(), clock).toBe(0)
      await page.context().close()
    }
  })
})
