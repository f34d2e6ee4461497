import { createHash, randomBytes } from 'node:crypto'
import type { Context, Hono } from 'hono'
import type { ServiceContext } from '../context.ts'
import type { Transaction } from '../db/database.ts'
import { AuthError, validation } from './errors.ts'
import { isUuid } from './guard.ts'
import { type Body, readBody, str } from './http.ts'

// The admin API for OAuth 2.1 server clients (oauthserver/handlers.go and service.go), behind
// `[auth.oauth_server] enabled`: register, list, get, update, delete, regenerate the secret.
// Only the registry: localbase does not run the authorization server itself (/oauth/authorize,
// /oauth/token). The service key is checked by adminRoutes' /admin/* guard.

type ClientRow = {
  id: string
  registration_type: string
  client_type: string
  token_endpoint_auth_method: string
  redirect_uris: string
  grant_types: string
  client_name: string | null
  client_uri: string | null
  logo_uri: string | null
  created_at: string
  updated_at: string
}

const GRANT_TYPES = ['authorization_code', 'refresh_token']
const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post']

/** GoTrue's response shape: empty strings and lists are left out, the secret only when new. */
function clientJson(row: ClientRow, secret?: string): Record<string, unknown> {
  const json: Record<string, unknown> = {
    client_id: row.id,
    ...(secret ? { client_secret: secret } : {}),
    client_type: row.client_type,
    redirect_uris: row.redirect_uris.split(',').filter(Boolean),
    token_endpoint_auth_method: row.token_endpoint_auth_method,
    grant_types: row.grant_types.split(',').filter(Boolean),
    response_types: ['code'],
    client_name: row.client_name || undefined,
    client_uri: row.client_uri || undefined,
    logo_uri: row.logo_uri || undefined,
    registration_type: row.registration_type,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
  return JSON.parse(JSON.stringify(json)) as Record<string, unknown>
}

/** A new secret and the hash kept of it (32 random bytes; unpadded base64url SHA-256). */
function newSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url')
  return { secret, hash: createHash('sha256').update(secret).digest('base64url') }
}

function stringList(body: Body, key: string): string[] | undefined {
  const value = body[key]
  if (value === undefined || value === null) return undefined
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw validation(`${key} must be an array of strings`)
  }
  return value as string[]
}

/** Why a redirect URI is refused (service.go validateRedirectURI), or null. */
function redirectProblem(uri: string): string | null {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return 'must have scheme and host'
  }
  if (!url.host) return 'must have scheme and host'
  const scheme = url.protocol.slice(0, -1)
  if (['javascript', 'data', 'file', 'vbscript', 'about', 'blob'].includes(scheme)) {
    return `scheme '${scheme}' is not allowed for security reasons`
  }
  if (scheme === 'http' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
    return 'HTTP scheme only allowed for localhost'
  }
  if (url.hash) return 'fragment not allowed in redirect URI'
  return null
}

function checkRedirects(uris: string[], required: boolean): void {
  if (!uris.length) {
    throw validation(required ? 'redirect_uris is required' : 'redirect_uris cannot be empty')
  }
  if (uris.length > 10) throw validation('redirect_uris cannot exceed 10 items')
  for (const uri of uris) {
    const problem = redirectProblem(uri)
    if (problem) throw validation(`invalid redirect_uri '${uri}': ${problem}`)
  }
}

function checkGrants(grants: string[]): void {
  if (!grants.length) throw validation('grant_types cannot be empty')
  if (grants.some((grant) => !GRANT_TYPES.includes(grant))) {
    throw validation("grant_types must only contain 'authorization_code' and/or 'refresh_token'")
  }
}

function checkUri(key: string, value: string | undefined): void {
  if (!value) return
  if (value.length > 2048) throw validation(`${key} cannot exceed 2048 characters`)
  if (!URL.canParse(value)) throw validation(`${key} must be a valid URL`)
}

function checkName(name: string | undefined): void {
  if (name && name.length > 1024) throw validation('client_name cannot exceed 1024 characters')
}

const clientSql = `select id, registration_type, client_type, token_endpoint_auth_method,
    redirect_uris, grant_types, client_name, client_uri, logo_uri, created_at, updated_at
  from auth.oauth_clients`

async function loadClient(tx: Transaction, c: Context): Promise<ClientRow> {
  const id = c.req.param('clientId') ?? ''
  if (!isUuid(id)) throw validation('invalid client_id format')
  const { rows } = await tx.query<ClientRow>(`${clientSql} where id = $1 and deleted_at is null`, [
    id,
  ])
  if (!rows[0]) throw new AuthError(404, 'oauth_client_not_found', 'OAuth client not found')
  return rows[0]
}

async function register(ctx: ServiceContext, c: Context) {
  const body = await readBody(c)
  const redirects = stringList(body, 'redirect_uris') ?? []
  checkRedirects(redirects, true)
  const grants = stringList(body, 'grant_types')
  if (grants) checkGrants(grants)
  const name = str(body, 'client_name')
  checkName(name)
  const clientUri = str(body, 'client_uri')
  checkUri('client_uri', clientUri)
  const logoUri = str(body, 'logo_uri')
  checkUri('logo_uri', logoUri)
  const explicitType = str(body, 'client_type') ?? ''
  if (explicitType && explicitType !== 'public' && explicitType !== 'confidential') {
    throw validation("client_type must be 'public' or 'confidential'")
  }
  const method = str(body, 'token_endpoint_auth_method') ?? ''
  if (method && !AUTH_METHODS.includes(method)) {
    throw validation(`token_endpoint_auth_method must be one of: [${AUTH_METHODS.join(' ')}]`)
  }
  const inferred = method === 'none' ? 'public' : 'confidential'
  if (explicitType && method && explicitType !== inferred) {
    throw validation(
      `client_type '${explicitType}' is inconsistent with token_endpoint_auth_method ` +
        `'${method}' (expected client_type '${inferred}')`,
    )
  }
  const type = explicitType || (method ? inferred : 'confidential')
  const authMethod = method || (type === 'public' ? 'none' : 'client_secret_basic')
  const secret = type === 'confidential' ? newSecret() : null
  const row = await ctx.db.asService(async (tx) => {
    const { rows } = await tx.query<ClientRow>(
      `insert into auth.oauth_clients (id, client_secret_hash, registration_type, redirect_uris,
         grant_types, client_name, client_uri, logo_uri, client_type,
         token_endpoint_auth_method)
       values (gen_random_uuid(), $1, 'manual', $2, $3, $4, $5, $6, $7, $8)
       returning id`,
      [
        secret?.hash ?? null,
        redirects.join(','),
        (grants ?? GRANT_TYPES).join(','),
        name || null,
        clientUri || null,
        logoUri || null,
        type,
        authMethod,
      ],
    )
    return (await tx.query<ClientRow>(`${clientSql} where id = $1`, [rows[0]!.id])).rows[0]!
  })
  return c.json(clientJson(row, secret?.secret), 201)
}

async function update(ctx: ServiceContext, c: Context) {
  const body = await readBody(c)
  const redirects = stringList(body, 'redirect_uris')
  if (redirects) checkRedirects(redirects, false)
  const grants = stringList(body, 'grant_types')
  if (grants) checkGrants(grants)
  const name = str(body, 'client_name')
  checkName(name)
  const clientUri = str(body, 'client_uri')
  checkUri('client_uri', clientUri)
  const logoUri = str(body, 'logo_uri')
  checkUri('logo_uri', logoUri)
  const method = str(body, 'token_endpoint_auth_method')
  if (method !== undefined && !AUTH_METHODS.includes(method)) {
    throw validation(
      `invalid token_endpoint_auth_method: must be one of [${AUTH_METHODS.join(' ')}]`,
    )
  }
  const given = [redirects, grants, name, clientUri, logoUri, method]
  if (given.every((value) => value === undefined)) {
    throw validation('No fields provided for update')
  }
  const row = await ctx.db.asService(async (tx) => {
    const found = await loadClient(tx, c)
    if (method !== undefined && (method === 'none') !== (found.client_type === 'public')) {
      const valid = found.client_type === 'public' ? 'none' : AUTH_METHODS.slice(1).join(' ')
      throw validation(
        `token_endpoint_auth_method '${method}' is not valid for client_type ` +
          `'${found.client_type}'; valid methods: [${valid}]`,
      )
    }
    const { rows } = await tx.query<ClientRow>(
      `update auth.oauth_clients set
         redirect_uris = coalesce($2, redirect_uris), grant_types = coalesce($3, grant_types),
         client_name = coalesce($4, client_name), client_uri = coalesce($5, client_uri),
         logo_uri = coalesce($6, logo_uri),
         token_endpoint_auth_method = coalesce($7, token_endpoint_auth_method),
         updated_at = now()
       where id = $1 returning id`,
      [
        found.id,
        redirects?.join(',') ?? null,
        grants?.join(',') ?? null,
        name ?? null,
        clientUri ?? null,
        logoUri ?? null,
        method ?? null,
      ],
    )
    return (await tx.query<ClientRow>(`${clientSql} where id = $1`, [rows[0]!.id])).rows[0]!
  })
  return c.json(clientJson(row))
}

export function adminOAuthClientRoutes(app: Hono, ctx: ServiceContext): void {
  // GoTrue's requireOAuthServerEnabled, after the admin guard.
  app.use('/admin/oauth/*', async (_c, next) => {
    if (!ctx.config.auth.oauthServerEnabled) {
      throw new AuthError(404, 'feature_disabled', 'OAuth server is disabled')
    }
    await next()
  })

  app.post('/admin/oauth/clients', (c) => register(ctx, c))

  app.get('/admin/oauth/clients', async (c) => {
    const { rows } = await ctx.db.asService((tx) =>
      tx.query<ClientRow>(`${clientSql} where deleted_at is null order by created_at desc`),
    )
    return c.json({ clients: rows.map((row) => clientJson(row)) })
  })

  app.get('/admin/oauth/clients/:clientId', async (c) => {
    const row = await ctx.db.asService((tx) => loadClient(tx, c))
    return c.json(clientJson(row))
  })

  app.put('/admin/oauth/clients/:clientId', (c) => update(ctx, c))

  app.delete('/admin/oauth/clients/:clientId', async (c) => {
    await ctx.db.asService(async (tx) => {
      const found = await loadClient(tx, c)
      await tx.query('update auth.oauth_clients set deleted_at = now() where id = $1', [found.id])
    })
    return c.body(null, 204)
  })

  app.post('/admin/oauth/clients/:clientId/regenerate_secret', async (c) => {
    const { row, secret } = await ctx.db.asService(async (tx) => {
      const found = await loadClient(tx, c)
      if (found.client_type !== 'confidential') {
        throw validation('Cannot regenerate secret for public client')
      }
      const fresh = newSecret()
      await tx.query(
        'update auth.oauth_clients set client_secret_hash = $2, updated_at = now() where id = $1',
        [found.id, fresh.hash],
      )
      const { rows } = await tx.query<ClientRow>(`${clientSql} where id = $1`, [found.id])
      return { row: rows[0]!, secret: fresh.secret }
    })
    return c.json(clientJson(row, secret))
  })
}
