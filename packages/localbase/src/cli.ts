#!/usr/bin/env node
import { parseArgs } from 'node:util'
import { mailboxOpen } from './auth/mailbox.ts'
import { backupCommand, exportCommand, restoreCommand } from './backup/commands.ts'
import type { LocalbaseConfig } from './config/config.ts'
import { startLocalbase } from './server.ts'

const usage = `Usage: localbase start [options]
       localbase backup --out FILE [--url URL] [--key KEY]
       localbase restore FILE --data-dir DIR
       localbase export FILE --out DIR

  --workdir DIR     folder that holds supabase/ (config.toml, migrations, seed.sql, functions)
  --port N          API port (env PORT, default 54321)
  --host HOST       address to listen on (env HOST, default 127.0.0.1)
  --data-dir DIR    database and files (env DATA_DIR, default <workdir>/.sourcebook)
  --db-url URL      use this Postgres (15+, with pgvector) instead of PGlite in the data
                    dir (env DATABASE_URL); files stay in the data dir
  --db-port N       also expose a Postgres wire-protocol endpoint (e.g. 54322)
  --serve DIR       serve a built web app at /

backup asks a running localbase (--url, env API_URL, default http://127.0.0.1:PORT) for a
consistent archive of its database and files, with the service-role or secret key (--key,
env SERVICE_ROLE_KEY); restore unpacks one into a new data dir; export turns one into
DIR/data.sql (rows for psql on a hosted project made with supabase db push) and
DIR/storage/<bucket>/<name> (files for supabase storage cp).
  --out FILE|DIR    where backup writes the archive, or export its files
  --url URL         the running localbase
  --key KEY         its service-role or secret key`

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    workdir: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    'data-dir': { type: 'string' },
    'db-url': { type: 'string' },
    'db-port': { type: 'string' },
    serve: { type: 'string' },
    out: { type: 'string' },
    url: { type: 'string' },
    key: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
})

const command = positionals[0]
if (!values.help && (command === 'backup' || command === 'restore' || command === 'export')) {
  try {
    if (command === 'backup') await backupCommand(values)
    else if (command === 'restore') await restoreCommand(positionals[1], values['data-dir'])
    else await exportCommand(positionals[1], values.out)
    process.exit(0)
  } catch (error) {
    console.error(`[localbase] ${command} failed: ${(error as Error).message}`)
    process.exit(1)
  }
}

if (values.help || command !== 'start') {
  console.log(usage)
  process.exit(values.help ? 0 : 1)
}

// One bad request must never take the process down; log it and carry on.
process.on('uncaughtException', (error) => console.error('[localbase] uncaught:', error))
process.on('unhandledRejection', (error) => console.error('[localbase] unhandled:', error))

/** Where auth mail goes, for the banner. */
/** With `[auth] signing_keys_path`, which key signs access tokens (the rest only verify). */
function signingKeysLine(config: LocalbaseConfig): string {
  const [current, ...older] = config.auth.signingKeys
  if (!current) return ''
  const rest = older.length ? ` (+${older.length} verifying only)` : ''
  return `\n  Signing key      ${current.alg} ${current.kid}${rest}`
}

/** Which Postgres holds the data, without the password of a --db-url. */
function databaseLine(config: LocalbaseConfig): string {
  if (!config.dbUrl) return 'PGlite, in the data dir'
  const url = new URL(config.dbUrl)
  return `Postgres ${url.username ? `${url.username}@` : ''}${url.host}${url.pathname}`
}

function mailTarget(config: LocalbaseConfig, url: string): string {
  const { smtp } = config.auth
  if (smtp) return `SMTP ${smtp.host}:${smtp.port}, from ${smtp.adminEmail}`
  if (mailboxOpen(config)) return `dev mailbox ${url}/auth/v1/mailbox`
  return 'not sent: no SMTP configured (set [auth.email.smtp] or SMTP_HOST)'
}

try {
  const lb = await startLocalbase({
    workdir: values.workdir,
    port: values.port ? Number(values.port) : undefined,
    host: values.host,
    dataDir: values['data-dir'],
    dbUrl: values['db-url'],
    dbPort: values['db-port'] ? Number(values['db-port']) : null,
    serveDir: values.serve,
  })
  let socket: { stop(): Promise<void> } | null = null
  if (lb.config.dbPort && !lb.db.engine.pglite) {
    throw new Error('--db-port exposes PGlite; with --db-url, connect to that Postgres directly')
  }
  if (lb.config.dbPort && lb.db.engine.pglite) {
    socket = await lb.db.engine.pglite.serveSocket(lb.config.dbPort, lb.config.host)
  }
  const { keys } = lb.config
  console.log(`
  localbase is running

  API URL          ${lb.url}
  REST             ${lb.url}/rest/v1
  Auth             ${lb.url}/auth/v1
  Mail             ${mailTarget(lb.config, lb.url)}
  Health           ${lb.url}/health${lb.config.dbPort ? `\n  DB URL           postgresql://postgres:postgres@${lb.config.host}:${lb.config.dbPort}/postgres` : ''}${lb.config.serveDir ? `\n  App              ${lb.url}/` : ''}
  Database         ${databaseLine(lb.config)}
  Data dir         ${lb.config.dataDir}

  Publishable key  ${keys.publishableKey}
  Secret key       ${keys.secretKey}
  anon key         ${keys.anonKey}
  service_role key ${keys.serviceRoleKey}
  JWT secret       ${keys.jwtSecret}${signingKeysLine(lb.config)}
`)
  const shutdown = async (signal: string) => {
    console.log(`\n[localbase] ${signal}: closing the database cleanly`)
    await socket?.stop()
    await lb.stop()
    process.exit(0)
  }
  process.once('SIGINT', () => void shutdown('SIGINT'))
  process.once('SIGTERM', () => void shutdown('SIGTERM'))
} catch (error) {
  console.error(`[localbase] failed to start: ${(error as Error).message}`)
  process.exit(1)
}
