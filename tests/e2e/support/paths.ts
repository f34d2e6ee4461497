import { fileURLToPath } from 'node:url'

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url))
export const webDir = fileURLToPath(new URL('../../../apps/web/', import.meta.url))
export const distDir = fileURLToPath(new URL('../../../apps/web/dist/', import.meta.url))
export const screenshotDir = fileURLToPath(new URL('../screenshots/', import.meta.url))
