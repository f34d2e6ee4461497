import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineProject } from 'vitest/config'

// Route-level tests in jsdom against a real localbase started once in globalSetup.
export default defineProject({
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    name: 'web',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    globalSetup: ['src/testing/global-setup.ts'],
    setupFiles: ['src/testing/setup-tests.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One localbase for every file: run the files one after another.
    fileParallelism: false,
  },
})
