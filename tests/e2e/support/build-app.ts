import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { distDir, webDir } from './paths.ts'

function newestChange(path: string): number {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))))
}

/** Builds the web app when dist is missing or older than its sources. */
export default function buildApp() {
  const built = join(distDir, 'index.html')
  const sources = [
    'src',
    'public',
    'index.html',
    'vite.config.ts',
    'security-headers.ts',
    'package.json',
  ]
    .map((name) => join(webDir, name))
    .filter(existsSync)
  if (existsSync(built) && statSync(built).mtimeMs > Math.max(...sources.map(newestChange))) return
  const vite = join(webDir, '../../node_modules/vite/bin/vite.js')
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: webDir,
    stdio: 'inherit',
    // Vitest sets NODE_ENV=test, which would make Vite ship React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (result.status !== 0) throw new Error(`vite build failed (${result.status})`)
}
