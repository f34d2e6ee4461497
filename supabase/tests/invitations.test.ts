import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, type User } from './stack.ts'
import { openSuite } from './suite.ts'

const { stack, drivers } = await openSuite()
afterAll(() => stack.stop())

type Invitation = {
  id: string
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
  let editor: User
  let viewer: User
  let outsider: User
  let workspaceId: string
  beforeAll(async () => {
    owner = await createUser(stack, 'owner', { display_name: 'Olivia Owner' })
    ;[editor, viewer, outsider] = [
      await createUser(stack, 'editor'),
      await createUser(stack, 'viewer'),
      await createUser(stack, 'outsider'),
    ]
    const { rows } = await driver.call(stack, owner, {
      table: 'workspaces',
      op: 'insert',
      values: { name: 'Invited' },
      returning: true,
    })
    workspaceId = rows[0]!.id as string
    await stack.db.pg.query(
      `insert into public.workspace_members (workspace_id, user_id, role)
       values ($1, $2, 'editor'), ($1, $3, 'viewer')`,
      [workspaceId, editor.id, viewer.id],
    )
  })

  /** The invitation link's secret, as `caller` may read it: null when hidden from them. */
  const tokenOf = async (caller: User | undefined, invitationId: string) => {
    const { rows } = await driver.call(stack, caller, {
      table: 'workspace_invitation_tokens',
      op: 'select',
      match: { invitation_id: invitationId },
    })
    return (rows[0]?.token as string | undefined) ?? null
  }
  /** An owner's invitation, with the token the owner reads for its link. */
  const invite = async (
    email: string,
    role = 'editor',
  ): Promise<Invitation & { token: string }> => {
    const { rows, error } = await driver.call(stack, owner, {
      table: 'workspace_invitations',
      op: 'insert',
      values: { workspace_id: workspaceId, email, role },
      returning: true,
    })
    expect(error).toBeNull()
    const invitation = rows[0] as Invitation
    expect(invitation).not.toHaveProperty('token')
    return { ...invitation, token: (await tokenOf(owner, invitation.id))! }
  }
  const accept = (user: User | undefined, token: string) =>
    driver.rpc(stack, user, 'accept_invitation', { invitation_token: token })

  it('adds the invitee with the invited role, matching the email whatever its case', async () => {
    const invitee = await createUser(stack, 'Invitee')
    const invitation = await invite(`  ${invitee.email.toUpperCase()} `)
    expect(invitation.email).toBe(invitee.email.toLowerCase())
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

  it('shows the token to owners only, and select=* works for everyone', async () => {
    const invitee = await createUser(stack, 'reader')
    const invitation = await invite(invitee.email, 'viewer')
    expect(invitation.token).toMatch(/^[0-9a-f]{64}$/)
    for (const caller of [undefined, editor, viewer, invitee, outsider]) {
      expect(await tokenOf(caller, invitation.id)).toBeNull()
      const rows = await driver.call(stack, caller, {
        table: 'workspace_invitations',
        op: 'select',
        match: { id: invitation.id },
      })
      expect(rows).toEqual({ rows: [], error: null })
    }
    const owned = await driver.call(stack, owner, {
      table: 'workspace_invitations',
      op: 'select',
      match: { id: invitation.id },
    })
    expect(owned.error).toBeNull()
    expect(owned.rows).toMatchObject([{ id: invitation.id, email: invitee.email }])
    expect(owned.rows[0]).not.toHaveProperty('token')
  })

  it('refuses a missing or wrong token, whoever asks', async () => {
    const invitee = await createUser(stack, 'tokenless')
    const invitation = await invite(invitee.email)
    for (const token of ['', 'f'.repeat(64), invitation.token.toUpperCase()]) {
      expect((await accept(invitee, token)).error).toMatchObject({
        code: 'P0001',
        message: 'invitation not found',
      })
    }
    expect(await roleOf(workspaceId, invitee.id)).toBeNull()
  })

  it('refuses an account whose address is not confirmed, even with the token', async () => {
    const email = `pending.${Date.now()}@example.test`
    const invitation = await invite(email)
    const unconfirmed = await createUser(stack, 'unconfirmed', {}, { email, confirmed: false })
    expect((await accept(unconfirmed, invitation.token)).error).toMatchObject({
      code: '42501',
      message: 'confirm your email address before accepting an invitation',
    })
    expect(await roleOf(workspaceId, unconfirmed.id)).toBeNull()
    // Confirmed, the same account joins with the same token.
    await stack.db.pg.query('update auth.users set email_confirmed_at = now() where id = $1', [
      unconfirmed.id,
    ])
    expect((await accept(unconfirmed, invitation.token)).error).toBeNull()
    expect(await roleOf(workspaceId, unconfirmed.id)).toBe('editor')
  })

  it('reads the address from the account, not from a stale token', async () => {
    const invitee = await createUser(stack, 'stale')
    const invitation = await invite(invitee.email)
    // The address changed after the JWT was issued: its email claim no longer holds.
    await stack.db.pg.query(`update auth.users set email = 'elsewhere.' || email where id = $1`, [
      invitee.id,
    ])
    expect((await accept(invitee, invitation.token)).error).toMatchObject({
      code: 'P0001',
      message: 'invitation was sent to another email address',
    })
    expect(await roleOf(workspaceId, invitee.id)).toBeNull()
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

  it('lists the invitee their pending invitations, without the token', async () => {
    const guest = await createUser(stack, 'lister')
    const invitation = await invite(guest.email, 'viewer')
    const mine = await driver.rpc(stack, guest, 'my_invitations', {})
    expect(mine).toEqual({
      rows: [
        {
          id: invitation.id,
          workspace_id: workspaceId,
          workspace_name: 'Invited',
          role: 'viewer',
          invited_by_name: 'Olivia Owner',
          created_at: expect.any(String),
          expires_at: expect.any(String),
        },
      ],
      error: null,
    })
    // The table and the workspace itself stay the owners' and members' business.
    const table = await driver.call(stack, guest, { table: 'workspace_invitations', op: 'select' })
    expect(table).toEqual({ rows: [], error: null })
    const named = await driver.call(stack, guest, {
      table: 'workspaces',
      op: 'select',
      match: { id: workspaceId },
    })
    expect(named.rows).toEqual([])
    // Once accepted, the invitation leaves the invitee's list.
    expect((await accept(guest, invitation.token)).error).toBeNull()
    expect((await driver.rpc(stack, guest, 'my_invitations', {})).rows).toEqual([])
  })

  it('lists nothing to an account that has not confirmed the invited address', async () => {
    const email = `unproven.${Date.now()}@example.test`
    await invite(email)
    const claimer = await createUser(stack, 'claimer', {}, { email, confirmed: false })
    expect(await driver.rpc(stack, claimer, 'my_invitations', {})).toEqual({
      rows: [],
      error: null,
    })
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
    expect(fresh).toMatchObject({ id: invitation.id, email: guest.email })
    expect(new Date(fresh.expires_at).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000)
    const token = await tokenOf(owner, invitation.id)
    expect(token).toMatch(/^[0-9a-f]{64}$/)
    expect(token).not.toBe(invitation.token)
    expect((await accept(guest, invitation.token)).error?.message).toBe('invitation not found')
    expect((await accept(guest, token!)).error).toBeNull()
  })
})

describe.each(drivers)('an unconfirmed account through $name', (driver) => {
  it('creates no workspace, and is made a member by no one', async () => {
    const unconfirmed = await createUser(stack, 'newcomer', {}, { confirmed: false })
    const { rows, error } = await driver.call(stack, unconfirmed, {
      table: 'workspaces',
      op: 'insert',
      values: { name: 'Too early' },
      returning: true,
    })
    expect(rows).toEqual([])
    expect(error).toEqual({
      code: '42501',
      message: 'confirm your email address before joining or creating a workspace',
    })
    const { rows: made } = await stack.db.pg.query(
      `select 1 from public.workspaces where name = 'Too early'`,
    )
    expect(made).toEqual([])

    // Not even the database owner adds them (the seed, a script, a future RPC).
    const owner = await createUser(stack, 'host')
    const host = await driver.call(stack, owner, {
      table: 'workspaces',
      op: 'insert',
      values: { name: 'Host' },
      returning: true,
    })
    await expect(
      stack.db.pg.query(
        `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'viewer')`,
        [host.rows[0]!.id, unconfirmed.id],
      ),
    ).rejects.toMatchObject({ code: '42501' })
  })
})
