import { PGlite } from '@electric-sql/pglite'

/**
 * PGlite's start-up settings. Postgres' default 128 MB of shared buffers holds less than
 * search's working set at 100,000 chunks (rows, GIN index, content for snippets), and a
 * miss is a read through the WASM file system. Memory is only taken as pages are read.
 */
export const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=512MB']
