import type { Context, Hono } from 'hono'
import type { ServiceContext } from '../context.ts'
import { AuthError } from './errors.ts'
import { type FactorRow, loadFactor, removeFactor } from './factors.ts'
import { isUuid } from './guard.ts'
import { readBody, str } from './http.ts'

// The admin factor API (admin.go adminUserGetFactors, adminUserDeleteFactor,
// adminUserUpdateFactor); the service key is checked by adminRoutes' /admin/* guard.

async function ownerOf(ctx: ServiceContext, c: Context): Promise<string> {
  const id = c.req.param('id')
  if (!isUuid(id)) throw new AuthError(404, 'validation_failed', 'user_id must be an UUID')
  const { rows } = await ctx.db.asService((tx) =>
    tx.query('select 1 from auth.users where id = $1', [id]),
  )
  if (!rows.length) throw new AuthError(404, 'user_not_found', 'User not found')
  return id
}

export function adminFactorRoutes(app: Hono, ctx: ServiceContext): void {
  app.get('/admin/users/:id/factors', async (c) => {
    const userId = await ownerOf(ctx, c)
    const { rows } = await ctx.db.asService((tx) =>
      tx.query<{ factors: unknown[] }>(
        `select coalesce(jsonb_agg(_localbase.auth_factor(f) order by f.created_at), '[]')
           as factors from auth.mfa_factors f where user_id = $1`,
        [userId],
      ),
    )
    return c.json(rows[0]!.factors)
  })

  app.delete('/admin/users/:id/factors/:factorId', async (c) => {
    const userId = await ownerOf(ctx, c)
    const factor = await ctx.db.asService(async (tx) => {
      const found: FactorRow = await loadFactor(tx, userId, c.req.param('factorId'))
      await removeFactor(tx, found)
      return found.json
    })
    return c.json(factor)
  })

  app.put('/admin/users/:id/factors/:factorId', async (c) => {
    const userId = await ownerOf(ctx, c)
    const body = await readBody(c)
    const name = str(body, 'friendly_name')
    const factor = await ctx.db.asService(async (tx) => {
      const found = await loadFactor(tx, userId, c.req.param('factorId'))
      if (name === undefined) return found.json
      const { rows } = await tx.query<{ json: Record<string, unknown> }>(
        `update auth.mfa_factors f set friendly_name = $2, updated_at = now() where id = $1
         returning _localbase.auth_factor(f) as json`,
        [found.id, name],
      )
      return rows[0]!.json
    })
    return c.json(factor)
  })
}
