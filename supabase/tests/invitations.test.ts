import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, type User } from './stack.ts'
import { openSuite } from './suite.ts'

const { stack, drivers } = await openSuite()
afterAll(() => stack.stop())

type Invitation = {
  id: string
  token: string
  workspace_id: string
  email: string
  invited_by: string
  expires_at: string
}

const roleOf = async (workspaceId: string, userId: string) =>
  (
    await stack.db.pg.query<{ role: string }>(
      'select role from public.workspace_members where workspace_id = $1 and user_id = $2',
      [workspaceId, userId],
    )
  ).rows[0]?.role ?? null

describe.each(drivers)('invitations through $name', (driver) => {
  let owner: User
  let workspaceId: string
  beforeAll(async () => {
    owner = await createUser(stack, 'owner', { display_name: 'Olivia Owner' })
    const { rows } = await driver.call(stack, owner, {
      table: 'workspaces',
      op: 'insert',
      values: { name: 'Invited' },
      returning: true,
    })
    workspaceId = rows[0]!.id as string
  })

  const invite = async (email: string, role = 'editor'): Promise<Invitation> => {
    const { rows, error } = await driver.call(stack, owner, {
      table: 'workspace_invitations',
      op: 'insert',
      values: { workspace_id: workspaceId, email, role },
      returning: true,
    })
    expect(error).toBeNull()
    return rows[0] as Invitation
  }
  const accept = (user: User | undefined, token: string) =>
    driver.rpc(stack, user, 'accept_invitation', { invitation_token: token })

  it('adds the invitee with the invited role, matching the email whatever its case', async () => {
    const invitee = await createUser(stack, 'Invitee')
    const invitation = await invite(`  ${invitee.email.toUpperCase()} `)
    expect(invitation.email).toBe(invitee.email.toLowerCase())
    expect(invitation.token).toMatch(/^[0-9a-f]{64}$/)
    expect(invitation.invited_by).toBe(owner.id)

    const { rows, error } = await accept(invitee, invitation.token)
    expect(error).toBeNull()
    expect(rows).toEqual([{ accept_invitation: workspaceId }])
    expect(await roleOf(workspaceId, invitee.id)).toBe('editor')
    const { rows: marked } = await stack.db.pg.query(
      'select accepted_by from public.workspace_invitations where id = $1 and accepted_at is not null',
      [invitation.id],
    )
    expect(marked).toEqual([{ accepted_by: invitee.id }])
  })

  it('refuses another signed-in address, and leaves the invitation pending', async () => {
    const [invitee, intruder] = [await createUser(stack, 'meant'), await createUser(stack, 'other')]
    const invitation = await invite(invitee.email)
    const { error } = await accept(intruder, invitation.token)
    expect(error).toMatchObject({
      code: 'P0001',
      message: 'invitation was sent to another email address',
    })
    expect(await roleOf(workspaceId, intruder.id)).toBeNull()
    expect((await accept(invitee, invitation.token)).error).toBeNull()
  })

  it('refuses an expired invitation, an unknown token, a reused token and anonymous callers', async () => {
    const [late, twice] = [await createUser(stack, 'late'), await createUser(stack, 'twice')]
    const expired = await invite(late.email)
    await stack.db.pg.query(
      `update public.workspace_invitations set expires_at = now() - interval '1 minute' where id = $1`,
      [expired.id],
    )
    expect((await accept(late, expired.token)).error).toMatchObject({
      code: 'P0001',
      message: 'invitation has expired',
    })
    expect((await accept(late, 'f'.repeat(64))).error).toMatchObject({
      code: 'P0001',
      message: 'invitation not found',
    })
    expect(await roleOf(workspaceId, late.id)).toBeNull()

    const once = await invite(twice.email)
    expect((await accept(twice, once.token)).error).toBeNull()
    expect((await accept(twice, once.token)).error).toMatchObject({
      code: 'P0001',
      message: 'invitation has already been accepted',
    })
    expect((await accept(undefined, once.token)).error?.code).toBe('42501')
  })

  it('upgrades an existing membership but never downgrades it', async () => {
    const member = await createUser(stack, 'member')
    expect((await accept(member, (await invite(member.email, 'viewer')).token)).error).toBeNull()
    expect(await roleOf(workspaceId, member.id)).toBe('viewer')
    expect((await accept(member, (await invite(member.email, 'owner')).token)).error).toBeNull()
    expect(await roleOf(workspaceId, member.id)).toBe('owner')
    expect((await accept(member, (await invite(member.email, 'editor')).token)).error).toBeNull()
    expect(await roleOf(workspaceId, member.id)).toBe('owner')
  })

  it('refuses a second pending invitation to the same address', async () => {
    const email = (await createUser(stack, 'dup')).email
    await invite(email)
    const { error } = await driver.call(stack, owner, {
      table: 'workspace_invitations',
      op: 'insert',
      values: { workspace_id: workspaceId, email, role: 'viewer' },
    })
    expect(error?.code).toBe('23505')
  })

  it('refuses an address that is not one', async () => {
    const { error } = await driver.call(stack, owner, {
      table: 'workspace_invitations',
      op: 'insert',
      values: { workspace_id: workspaceId, email: 'not an address', role: 'viewer' },
    })
    expect(error?.code).toBe('23514')
  })

  it('does not let the invitee extend or change their own invitation', async () => {
    const guest = await createUser(stack, 'extender')
    const invitation = await invite(guest.email, 'viewer')
    await stack.db.pg.query(
      `update public.workspace_invitations set expires_at = now() - interval '1 day' where id = $1`,
      [invitation.id],
    )
    for (const values of [{ expires_at: '2099-01-01T00:00:00Z' }, { role: 'owner' }]) {
      await driver.call(stack, guest, {
        table: 'workspace_invitations',
        op: 'update',
        match: { id: invitation.id },
        values,
      })
    }
    const { rows } = await stack.db.pg.query(
      'select role, expires_at < now() as expired from public.workspace_invitations where id = $1',
      [invitation.id],
    )
    expect(rows).toEqual([{ role: 'viewer', expired: true }])
  })

  it('shows the accept screen to the token holder only', async () => {
    const guest = await createUser(stack, 'guest')
    const invitation = await invite(guest.email, 'viewer')
    for (const caller of [undefined, guest]) {
      const { rows, error } = await driver.rpc(stack, caller, 'get_invitation', {
        invitation_token: invitation.token,
      })
      expect(error).toBeNull()
      expect(rows).toEqual([
        {
          workspace_id: workspaceId,
          workspace_name: 'Invited',
          email: guest.email,
          role: 'viewer',
          invited_by_name: 'Olivia Owner',
          expires_at: expect.any(String),
          accepted_at: null,
        },
      ])
    }
    const unknown = await driver.rpc(stack, guest, 'get_invitation', { invitation_token: 'nope' })
    expect(unknown).toEqual({ rows: [], error: null })
  })

  it('lets the invitee list their pending invitations and see the workspace name', async () => {
    const guest = await createUser(stack, 'lister')
    const invitation = await invite(guest.email, 'viewer')
    const mine = await driver.call(stack, guest, { table: 'workspace_invitations', op: 'select' })
    expect(mine.rows.map((row) => row.id)).toEqual([invitation.id])
    const named = await driver.call(stack, guest, {
      table: 'workspaces',
      op: 'select',
      match: { id: workspaceId },
    })
    expect(named.rows).toMatchObject([{ name: 'Invited' }])
    // Once accepted, the invitation leaves the invitee's list.
    await accept(guest, invitation.token)
    const after = await driver.call(stack, guest, { table: 'workspace_invitations', op: 'select' })
    expect(after.rows).toEqual([])
  })

  it('resends with a fresh token and expiry, for owners only', async () => {
    const guest = await createUser(stack, 'resent')
    const invitation = await invite(guest.email)
    await stack.db.pg.query(
      `update public.workspace_invitations set expires_at = now() - interval '1 day' where id = $1`,
      [invitation.id],
    )
    const refused = await driver.rpc(stack, guest, 'resend_invitation', {
      invitation_id: invitation.id,
    })
    expect(refused.error).toMatchObject({ code: 'P0001', message: 'invitation not found' })

    const { rows, error } = await driver.rpc(stack, owner, 'resend_invitation', {
      invitation_id: invitation.id,
    })
    expect(error).toBeNull()
    const fresh = rows[0] as Invitation
    expect(fresh.token).not.toBe(invitation.token)
    expect(new Date(fresh.expires_at).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000)
    expect((await accept(guest, invitation.token)).error?.message).toBe('invitation not found')
    expect((await accept(guest, fresh.token)).error).toBeNull()
  })
})
