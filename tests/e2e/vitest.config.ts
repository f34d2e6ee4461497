import { fileURLToPath } from 'node:url'
import { defineProject } from 'vitest/config'

// Browser tests: Debian's Chromium through playwright-core, against localbase serving the
// built app. One file at a time: each starts its own stack and browser.
export default defineProject({
  test: {
    name: 'e2e',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['**/*.e2e.ts'],
    globalSetup: ['support/build-app.ts'],
    setupFiles: ['support/csp-guard.ts'],
    environment: 'node',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
})
