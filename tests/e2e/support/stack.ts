import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  DEFAULT_JWT_SECRET,
  relaxedAuthLimits,
  startLocalbase,
} from '../../../packages/localbase/src/index.ts'
import { scratchDatabase } from '../../../packages/localbase/test/scratch-database.ts'
import { repoRoot } from './paths.ts'

/**
 * localbase with the project's migrations, serving the built app at `/`. `env` adds to the
 * functions' environment (an AI provider's key and base URL, say). With
 * LOCALBASE_TEST_DATABASE_URL set, each stack gets its own database on that Postgres.
 */
export async function startStack(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'sourcebook-e2e-'))
  const database = await scratchDatabase(dataDir)
  const options = {
    workdir: repoRoot,
    serveDir: 'apps/web/dist',
    dataDir,
    env: {
      ...process.env,
      PORT: '',
      HOST: '',
      DATA_DIR: '',
      DATABASE_URL: database?.url ?? '',
      ...relaxedAuthLimits,
      // The functions sign access tokens' short-lived JWTs with the project's secret.
      ACCESS_TOKEN_JWT_SECRET: DEFAULT_JWT_SECRET,
      ...env,
    },
  }
  let localbase: Awaited<ReturnType<typeof startLocalbase>> | null = await startLocalbase({
    ...options,
    port: 0,
  })
  const url = localbase.url
  return {
    url,
    /** The database, for what no API may do (an import's heartbeat stopped long ago, say). */
    get db() {
      if (!localbase) throw new Error('the stack is halted')
      return localbase.db
    },
    /** The server goes away, as in an outage; its data stays for `restart`. */
    halt: async () => {
      await localbase?.stop()
      localbase = null
    },
    /** Back after `halt`, on the same port with the same data. */
    restart: async () => {
      localbase ??= await startLocalbase({ ...options, port: Number(new URL(url).port) })
    },
    stop: async () => {
      await localbase?.stop()
      rmSync(dataDir, { recursive: true, force: true })
      await database?.drop()
    },
  }
}

type Mail = { to: string; subject: string; text: string; link: string; created_at: string }

/** The newest mail in the dev mailbox for `email` whose link satisfies `match`. */
export async function latestMail(url: string, email: string, match: (link: string) => boolean) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await fetch(
      `${url}/auth/v1/mailbox/messages?email=${encodeURIComponent(email)}`,
    )
    const mails = (await response.json()) as Mail[]
    const mail = mails.find((m) => match(m.link))
    if (mail) return mail
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no matching mail for ${email}`)
}
