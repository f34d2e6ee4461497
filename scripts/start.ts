// `npm start`: build the web app when its sources changed since the last build, then run
// localbase for this repository, serving the app at /.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { DEFAULT_JWT_SECRET } from '../packages/localbase/src/config/keys.ts'

const root = new URL('..', import.meta.url).pathname
const web = join(root, 'apps/web')
const dist = join(web, 'dist/index.html')

function newest(path: string): number {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(path).map((entry) => newest(join(path, entry))))
}

const sources = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'security-headers.ts',
  'package.json',
]
const built = existsSync(dist) ? statSync(dist).mtimeMs : 0
if (sources.some((s) => newest(join(web, s)) > built)) {
  console.log('Building the web app (its sources changed)…')
  const build = spawnSync(join(root, 'node_modules/.bin/vite'), ['build'], {
    cwd: web,
    stdio: 'inherit',
  })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

const child = spawn(
  process.execPath,
  [
    join(root, 'packages/localbase/src/cli.ts'),
    'start',
    '--workdir',
    root,
    '--serve',
    'apps/web/dist',
    ...process.argv.slice(2),
  ],
  {
    stdio: 'inherit',
    // The functions sign access tokens' short-lived JWTs with the project's own secret
    // (supabase/functions/_shared/caller.ts); localbase's is JWT_SECRET or the CLI default.
    env: {
      ...process.env,
      ACCESS_TOKEN_JWT_SECRET:
        process.env.ACCESS_TOKEN_JWT_SECRET || process.env.JWT_SECRET || DEFAULT_JWT_SECRET,
    },
  },
)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal))
child.on('exit', (code) => process.exit(code ?? 0))
