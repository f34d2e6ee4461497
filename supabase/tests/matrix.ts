import { randomUUID } from 'node:crypto'
import { expect, it } from 'vitest'
import type { Call, Driver } from './drivers.ts'
import type { Stack } from './stack.ts'
import { type Actor, actorUser, actors, createWorld, type People, type World } from './world.ts'

type Op = Call['op']

type Cell = {
  call(world: World, marker: string): Omit<Call, 'table' | 'op'>
  /** Whether the call changed the database, read as the database owner (not for select). */
  effect?(stack: Stack, world: World, marker: string): Promise<boolean>
  allowed: Actor[]
}

async function exists(stack: Stack, sql: string, params: unknown[]): Promise<boolean> {
  const { rows } = await stack.db.pg.query(`select 1 from ${sql} limit 1`, params)
  return rows.length > 0
}

const members: Actor[] = ['viewer', 'editor', 'owner']

/** Who may do what, per table and operation: the roles of docs/product.md. */
export const matrix: Record<string, Record<Op, Cell>> = {
  workspaces: {
    select: { call: (w) => ({ match: { id: w.workspaceId } }), allowed: members },
    insert: {
      call: (_w, m) => ({ values: { name: m } }),
      effect: (s, _w, m) => exists(s, 'public.workspaces where name = $1', [m]),
      allowed: ['outsider', 'viewer', 'editor', 'owner'],
    },
    update: {
      call: (w, m) => ({ match: { id: w.workspaceId }, values: { name: m } }),
      effect: (s, _w, m) => exists(s, 'public.workspaces where name = $1', [m]),
      allowed: ['owner'],
    },
    delete: {
      call: (w) => ({ match: { id: w.workspaceId } }),
      effect: async (s, w) =>
        !(await exists(s, 'public.workspaces where id = $1', [w.workspaceId])),
      allowed: ['owner'],
    },
  },
  workspace_members: {
    select: { call: (w) => ({ match: { workspace_id: w.workspaceId } }), allowed: members },
    insert: {
      call: (w) => ({
        values: { workspace_id: w.workspaceId, user_id: w.people.outsider.id, role: 'viewer' },
      }),
      effect: (s, w) =>
        exists(s, 'public.workspace_members where workspace_id = $1 and user_id = $2', [
          w.workspaceId,
          w.people.outsider.id,
        ]),
      allowed: [],
    },
    update: {
      call: (w) => ({
        match: { workspace_id: w.workspaceId, user_id: w.people.viewer.id },
        values: { role: 'editor' },
      }),
      effect: (s, w) =>
        exists(
          s,
          `public.workspace_members where workspace_id = $1 and user_id = $2 and role = 'editor'`,
          [w.workspaceId, w.people.viewer.id],
        ),
      allowed: ['owner'],
    },
    // The viewer's own membership: the viewer may leave, the owner may remove them.
    delete: {
      call: (w) => ({ match: { workspace_id: w.workspaceId, user_id: w.people.viewer.id } }),
      effect: async (s, w) =>
        !(await exists(s, 'public.workspace_members where workspace_id = $1 and user_id = $2', [
          w.workspaceId,
          w.people.viewer.id,
        ])),
      allowed: ['viewer', 'owner'],
    },
  },
  workspace_invitations: {
    select: { call: (w) => ({ match: { id: w.invitationId } }), allowed: ['owner'] },
    insert: {
      call: (w, m) => ({
        values: { workspace_id: w.workspaceId, email: `${m}@example.test`, role: 'editor' },
      }),
      effect: (s, _w, m) =>
        exists(s, 'public.workspace_invitations where email = $1', [`${m}@example.test`]),
      allowed: ['owner'],
    },
    update: {
      call: (w) => ({ match: { id: w.invitationId }, values: { role: 'editor' } }),
      effect: (s, w) =>
        exists(s, `public.workspace_invitations where id = $1 and role = 'editor'`, [
          w.invitationId,
        ]),
      allowed: ['owner'],
    },
    delete: {
      call: (w) => ({ match: { id: w.invitationId } }),
      effect: async (s, w) =>
        !(await exists(s, 'public.workspace_invitations where id = $1', [w.invitationId])),
      allowed: ['owner'],
    },
  },
  // The invitation link's secret: owners read it; nobody writes it but the database.
  workspace_invitation_tokens: {
    select: { call: (w) => ({ match: { invitation_id: w.invitationId } }), allowed: ['owner'] },
    insert: {
      call: (w, m) => ({ values: { invitation_id: w.invitationId, token: m } }),
      effect: (s, _w, m) => exists(s, 'public.workspace_invitation_tokens where token = $1', [m]),
      allowed: [],
    },
    update: {
      call: (w, m) => ({ match: { invitation_id: w.invitationId }, values: { token: m } }),
      effect: (s, _w, m) => exists(s, 'public.workspace_invitation_tokens where token = $1', [m]),
      allowed: [],
    },
    delete: {
      call: (w) => ({ match: { invitation_id: w.invitationId } }),
      effect: async (s, w) =>
        !(await exists(s, 'public.workspace_invitation_tokens where invitation_id = $1', [
          w.invitationId,
        ])),
      allowed: [],
    },
  },
  // The target is the editor's profile: fellow members read it, only the editor edits it.
  profiles: {
    select: { call: (w) => ({ match: { id: w.people.editor.id } }), allowed: members },
    insert: {
      call: (w, m) => ({ values: { id: w.ghostId, display_name: m, avatar_color: '#000000' } }),
      effect: (s, w) => exists(s, 'public.profiles where id = $1', [w.ghostId]),
      allowed: [],
    },
    update: {
      call: (w, m) => ({ match: { id: w.people.editor.id }, values: { display_name: m } }),
      effect: (s, _w, m) => exists(s, 'public.profiles where display_name = $1', [m]),
      allowed: ['editor'],
    },
    delete: {
      call: (w) => ({ match: { id: w.people.editor.id } }),
      effect: async (s, w) =>
        !(await exists(s, 'public.profiles where id = $1', [w.people.editor.id])),
      allowed: [],
    },
  },
}

/**
 * Registers one test per table × operation × actor. A refused call either fails with
 * 42501 (no privilege, or a row-level security violation) or silently touches nothing.
 */
export function matrixTests(driver: Driver, setup: () => { stack: Stack; people: People }) {
  for (const [table, ops] of Object.entries(matrix)) {
    for (const [op, cell] of Object.entries(ops) as [Op, Cell][]) {
      for (const actor of actors) {
        const allowed = cell.allowed.includes(actor)
        it(`${table} × ${op} × ${actor}: ${allowed ? 'allowed' : 'refused'}`, async () => {
          const { stack, people } = setup()
          const world = await createWorld(stack, people)
          const marker = `m-${randomUUID()}`
          const answer = await driver.call(stack, actorUser(world, actor), {
            table,
            op,
            ...cell.call(world, marker),
          })
          const tookEffect = cell.effect
            ? await cell.effect(stack, world, marker)
            : answer.rows.length > 0 && !answer.error
          if (allowed) expect(answer.error).toBeNull()
          else if (answer.error) expect(answer.error.code).toBe('42501')
          expect(tookEffect).toBe(allowed)
        })
      }
    }
  }
}
