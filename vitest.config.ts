import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Each localbase test file starts its own localbase (one PGlite each); two cores.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'packages/*/test/**/*.test.ts',
            'supabase/tests/**/*.test.ts',
            'tests/fake-provider/**/*.test.ts',
          ],
          testTimeout: 30_000,
          // A stack start-up is a few seconds, but far more on a loaded machine.
          hookTimeout: 180_000,
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
})
