// `npm run dev`: localbase for this repository plus Vite's dev server with hot reload,
// the app talking to localbase's URL.
import { spawn } from 'node:child_process'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const port = process.env.PORT || '54321'
const host = process.env.HOST || '127.0.0.1'

const children = [
  spawn(
    process.execPath,
    [join(root, 'packages/localbase/src/cli.ts'), 'start', '--workdir', root],
    {
      stdio: 'inherit',
    },
  ),
  spawn(join(root, 'node_modules/.bin/vite'), [], {
    cwd: join(root, 'apps/web'),
    stdio: 'inherit',
    env: { ...process.env, VITE_SUPABASE_URL: `http://${host}:${port}` },
  }),
]
const stop = (signal: NodeJS.Signals) => children.forEach((c) => c.kill(signal))
process.on('SIGINT', () => stop('SIGINT'))
process.on('SIGTERM', () => stop('SIGTERM'))
for (const child of children)
  child.on('exit', (code) => {
    stop('SIGTERM')
    process.exitCode = code ?? 0
  })
