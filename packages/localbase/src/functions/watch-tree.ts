import { type FSWatcher, readdirSync, watch } from 'node:fs'
import { join, relative } from 'node:path'

/**
 * Calls `onChange` with the path (relative to `root`) of anything created, changed or removed
 * below `root`. One non-recursive watcher per directory: Node's `recursive` mode on Linux
 * watches files one by one and goes deaf to a file that an editor replaces by rename.
 */
export function watchTree(root: string, onChange: (path: string) => void): { close(): void } {
  const watchers = new Map<string, FSWatcher>()
  const add = (dir: string) => {
    if (watchers.has(dir)) return
    try {
      // Throws for files and vanished paths, which need no watcher of their own.
      const entries = readdirSync(dir, { withFileTypes: true })
      const watcher = watch(dir, (_event, file) => {
        const path = file ? join(dir, file) : dir
        onChange(relative(root, path))
        if (file) add(path)
      })
      watcher.on('error', () => remove(dir))
      // Watching alone never keeps the process alive.
      watcher.unref()
      watchers.set(dir, watcher)
      for (const entry of entries) {
        if (entry.isDirectory() && entry.name !== 'node_modules') add(join(dir, entry.name))
      }
    } catch {
      return
    }
  }
  const remove = (dir: string) => {
    watchers.get(dir)?.close()
    watchers.delete(dir)
  }
  add(root)
  return { close: () => [...watchers.keys()].forEach(remove) }
}
