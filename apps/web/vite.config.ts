import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { securityHeadersFile } from './security-headers'
import { tesseractData } from './tesseract-data'

export default defineConfig({
  plugins: [react(), tailwindcss(), securityHeadersFile(), tesseractData()],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // The ingest worker's HTML extraction uses linkedom, whose @acemir/cssom "browser" build
      // is a bare script without exports: take the package's module build instead.
      '@acemir/cssom': createRequire(import.meta.url).resolve('@acemir/cssom'),
    },
  },
  // The ingest worker imports pdf.js and friends, which split into chunks: an ES module worker.
  worker: { format: 'es' },
  build: { outDir: 'dist', emptyOutDir: true },
})
