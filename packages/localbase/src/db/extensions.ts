import { vector } from '@electric-sql/pglite-pgvector'
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin'
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist'
import { citext } from '@electric-sql/pglite/contrib/citext'
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch'
import { hstore } from '@electric-sql/pglite/contrib/hstore'
import { ltree } from '@electric-sql/pglite/contrib/ltree'
import { moddatetime } from '@electric-sql/pglite/contrib/moddatetime'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { uuid_ossp } from '@electric-sql/pglite/contrib/uuid_ossp'

/**
 * Extensions a Supabase project's migrations may `create extension`. They are only
 * registered here; Postgres loads each one when a migration creates it.
 */
export const extensions = {
  vector,
  pgcrypto,
  uuid_ossp,
  pg_trgm,
  unaccent,
  citext,
  btree_gin,
  btree_gist,
  hstore,
  ltree,
  fuzzystrmatch,
  moddatetime,
}
