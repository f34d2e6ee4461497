import { createClient, FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../../packages/localbase/src/index.ts'
import { followLink as follow, mailsTo, signUpByMail } from './mailbox.ts'
import { startStack } from './stack.ts'

// The send-invitation Edge Function on localbase, with real accounts and real mail: the
// link in the mailbox, followed as a browser would, lands on the app's invitation page
// signed in as the invitee.
const stack = await startStack()
afterAll(() => stack.stop())

type Member = { client: SupabaseClient; id: string; email: string }

const stamp = Date.now()
const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }
// localbase serves the app too, so its own origin is where invitation links land.
const origin = () => stack.url

/** An account signed up and confirmed through its mail, as people join now. */
async function signUp(name: string, displayName?: string): Promise<Member> {
  const email = `${name}.${stamp}@example.test`
  const data = displayName ? { display_name: displayName } : {}
  return { ...(await signUpByMail(stack.url, email, { data })), email }
}

/** The mail this function sends (Auth's invitation or a magic link), newest first. */
const mails = async (email: string) =>
  (await mailsTo(stack.url, email)).filter((mail) => !mail.link.includes('type=signup'))

/** The error status and body of a failed invoke. */
async function failure(result: { error: unknown }): Promise<{ status: number; code: string }> {
  expect(result.error).toBeInstanceOf(FunctionsHttpError)
  const response = (result.error as FunctionsHttpError).context as Response
  const body = (await response.json()) as { code: string }
  return { status: response.status, code: body.code }
}

const send = (member: Member, body?: Record<string, unknown>) =>
  member.client.functions.invoke('send-invitation', { body })

describe('send-invitation', () => {
  let owner: Member
  let workspaceId: string
  beforeAll(async () => {
    owner = await signUp('owner', 'Ada Lovelace')
    const { data, error } = await owner.client
      .from('workspaces')
      .insert({ name: 'Field notes' })
      .select('id')
      .single()
    expect(error).toBeNull()
    workspaceId = data!.id
  })

  /** A new invitation, and the token of its link as its owner reads it. */
  async function invite(email: string, role = 'editor') {
    const { data, error } = await owner.client
      .from('workspace_invitations')
      .insert({ workspace_id: workspaceId, email, role })
      .select('id')
      .single()
    expect(error).toBeNull()
    const secret = await owner.client
      .from('workspace_invitation_tokens')
      .select('token')
      .eq('invitation_id', data!.id)
      .single()
    expect(secret.error).toBeNull()
    return { id: data!.id as string, token: secret.data!.token as string }
  }

  it('invites a new address: the mailed link lands on the invitation signed in', async () => {
    const email = `newcomer.${stamp}@example.test`
    const invitation = await invite(email)
    const { data, error } = await send(owner, {
      invitation_id: invitation.id,
      redirect_to: origin(),
    })
    expect(error).toBeNull()
    expect(data).toEqual({ sent: 'invite', email })
    expect(JSON.stringify(data)).not.toContain(invitation.token)

    // Sourcebook's own invitation mail (supabase/templates/invite.html) says who and what.
    const [mail] = await mails(email)
    expect(mail?.subject).toBe('Ada Lovelace invited you to join Field notes on Sourcebook')
    expect(mail?.text).toContain(
      'Ada Lovelace invited you to join Field notes on Sourcebook as an editor.',
    )
    expect(mail?.text).toContain(mail!.link)
    const landing = await follow(mail!.link)
    expect(`${landing.origin}${landing.pathname}`).toBe(`${origin()}/invite/${invitation.token}`)
    const session = new URLSearchParams(landing.hash.slice(1))
    expect(session.get('type')).toBe('invite')
    expect(landing.searchParams.get('new_account')).toBe('1')

    // The session is the invitee's, and joins the workspace with the invitation's token.
    const invitee = createClient(stack.url, DEFAULT_ANON_KEY, {
      auth: noSession,
      global: { headers: { Authorization: `Bearer ${session.get('access_token')}` } },
    })
    const { data: user } = await invitee.auth.getUser(session.get('access_token')!)
    expect(user.user?.email).toBe(email)
    expect(user.user?.user_metadata).toMatchObject({ workspace_name: 'Field notes' })
    // The invitee names themselves: the inviter's name is not taken for theirs.
    expect(user.user?.user_metadata.display_name).toBeUndefined()
    const accepted = await invitee.rpc('accept_invitation', { invitation_token: invitation.token })
    expect(accepted.error).toBeNull()
    expect(accepted.data).toBe(workspaceId)
    const again = await send(owner, { invitation_id: invitation.id, redirect_to: origin() })
    expect(await failure(again)).toEqual({ status: 409, code: 'invitation_accepted' })
  })

  it('escapes what people typed in the HTML of the mail, not in its subject', async () => {
    const { data: workspace, error } = await owner.client
      .from('workspaces')
      .insert({ name: 'R&D <script>' })
      .select('id')
      .single()
    expect(error).toBeNull()
    const email = `escaped.${stamp}@example.test`
    const { data: row } = await owner.client
      .from('workspace_invitations')
      .insert({ workspace_id: workspace!.id, email, role: 'viewer' })
      .select('id')
      .single()
    expect((await send(owner, { invitation_id: row!.id, redirect_to: origin() })).error).toBeNull()

    const res = await fetch(`${stack.url}/auth/v1/mailbox/messages?email=${email}`)
    const [mail] = (await res.json()) as { subject: string; html: string; text: string }[]
    expect(mail?.subject).toBe('Ada Lovelace invited you to join R&D <script> on Sourcebook')
    expect(mail?.html).toContain('<strong>R&#38;D &#60;script&#62;</strong>')
    expect(mail?.html).not.toContain('<script>')
    expect(mail?.text).toContain('join R&D <script> on Sourcebook as a viewer.')
  })

  it('sends someone with an account a magic link to the invitation', async () => {
    const existing = await signUp('existing')
    const invitation = await invite(existing.email, 'viewer')
    const { data, error } = await send(owner, {
      invitation_id: invitation.id,
      redirect_to: `${origin()}/`,
    })
    expect(error).toBeNull()
    expect(data).toEqual({ sent: 'magiclink', email: existing.email })

    // The magic-link mail (supabase/templates/magic-link.html) says who and what, too.
    const [mail] = await mails(existing.email)
    expect(mail?.subject).toBe('Ada Lovelace invited you to join Field notes on Sourcebook')
    expect(mail?.text).toContain(
      'Ada Lovelace invited you to join Field notes on Sourcebook as a viewer.',
    )
    const landing = await follow(mail!.link)
    expect(`${landing.origin}${landing.pathname}`).toBe(`${origin()}/invite/${invitation.token}`)
    const session = new URLSearchParams(landing.hash.slice(1))
    const { data: user } = await existing.client.auth.getUser(session.get('access_token')!)
    expect(user.user?.id).toBe(existing.id)
    // The invitation's details were the account's for that one mail only.
    expect(
      Object.keys(user.user!.user_metadata).filter((k) => k.startsWith('invitation_')),
    ).toEqual([])
    // The person's own sign-in link later is a sign-in link.
    const signIn = await existing.client.auth.signInWithOtp({
      email: existing.email,
      options: { shouldCreateUser: false },
    })
    expect(signIn.error).toBeNull()
    const [later] = await mails(existing.email)
    expect(later?.subject).toBe('Your Sourcebook sign-in link')
    expect(later?.text).not.toContain('invited')
  })

  it('lands on the Vite dev server at localhost too, as config.toml allows', async () => {
    const email = `vite.${stamp}@example.test`
    const invitation = await invite(email)
    const sent = await send(owner, {
      invitation_id: invitation.id,
      redirect_to: 'http://localhost:5173',
    })
    expect(sent.error).toBeNull()
    const landing = await follow((await mails(email))[0]!.link)
    expect(`${landing.origin}${landing.pathname}`).toBe(
      `http://localhost:5173/invite/${invitation.token}`,
    )
  })

  it('resends to an invitee who has not followed the first mail yet', async () => {
    const email = `twice.${stamp}@example.test`
    const invitation = await invite(email)
    const body = { invitation_id: invitation.id, redirect_to: origin() }
    expect((await send(owner, body)).data).toEqual({ sent: 'invite', email })
    expect((await send(owner, body)).data).toEqual({ sent: 'invite', email })
    const inbox = await mails(email)
    expect(inbox).toHaveLength(2)
    // Only the newest link works: each mail replaces the previous one-time token.
    const stale = await follow(inbox[1]!.link)
    expect(new URLSearchParams(stale.hash.slice(1)).get('error_code')).toBe('otp_expired')
    const landing = await follow(inbox[0]!.link)
    expect(new URLSearchParams(landing.hash.slice(1)).get('access_token')).toBeTruthy()
  })

  describe('refuses everyone but the workspace owners, and sends nothing', () => {
    const email = `target.${stamp}@example.test`
    let invitationId: string
    let people: Record<'editor' | 'viewer' | 'outsider' | 'invitee', Member>
    beforeAll(async () => {
      invitationId = (await invite(email)).id
      people = {
        editor: await signUp('editor'),
        viewer: await signUp('viewer'),
        outsider: await signUp('outsider'),
        invitee: { ...(await signUp('target')), email },
      }
      for (const role of ['editor', 'viewer'] as const) {
        await stack.db.pg.query(
          'insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, $3)',
          [workspaceId, people[role].id, role],
        )
      }
    })

    // The invitee, who cannot read it either, never learns the token from the function.
    it.each(['editor', 'viewer', 'outsider', 'invitee'] as const)(
      'a %s learns nothing',
      async (who) => {
        const result = await send(people[who], {
          invitation_id: invitationId,
          redirect_to: origin(),
        })
        expect(await failure(result)).toEqual({ status: 404, code: 'invitation_not_found' })
        expect(await mails(email)).toEqual([])
      },
    )

    it('an anonymous caller gets nothing either', async () => {
      const anon = createClient(stack.url, DEFAULT_ANON_KEY, { auth: noSession })
      const result = await anon.functions.invoke('send-invitation', {
        body: { invitation_id: invitationId, redirect_to: origin() },
      })
      expect(await failure(result)).toEqual({ status: 404, code: 'invitation_not_found' })
      expect(await mails(email)).toEqual([])
    })
  })

  it.each([
    ['no body', undefined],
    ['a non-UUID id', { invitation_id: 'abc', redirect_to: 'http://127.0.0.1:5173' }],
    ['no redirect', { invitation_id: crypto.randomUUID() }],
    [
      'a redirect with a path',
      { invitation_id: crypto.randomUUID(), redirect_to: 'http://127.0.0.1:5173/x' },
    ],
    [
      'a non-http redirect',
      { invitation_id: crypto.randomUUID(), redirect_to: 'javascript:alert(1)' },
    ],
  ])('answers 400 to %s', async (_, body) => {
    expect(await failure(await send(owner, body))).toEqual({ status: 400, code: 'invalid_input' })
  })

  it('refuses a redirect to another site than the calling page', async () => {
    const { id } = await invite(`elsewhere.${stamp}@example.test`)
    const { data: session } = await owner.client.auth.getSession()
    const res = await fetch(`${stack.url}/functions/v1/send-invitation`, {
      method: 'POST',
      headers: {
        apikey: DEFAULT_ANON_KEY,
        authorization: `Bearer ${session.session!.access_token}`,
        origin: 'http://127.0.0.1:5173',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ invitation_id: id, redirect_to: 'https://attacker.example' }),
    })
    expect(res.status).toBe(403)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(await res.json()).toMatchObject({ code: 'redirect_not_allowed' })
    expect(await mails(`elsewhere.${stamp}@example.test`)).toEqual([])
  })

  it('answers the CORS preflight itself', async () => {
    const res = await fetch(`${stack.url}/functions/v1/send-invitation`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, apikey, content-type, x-client-info',
      },
    })
    expect(res.ok).toBe(true)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-headers')).toMatch(/authorization/)
    // The function's own answer, not the gateway's.
    expect(res.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS')
    expect(await res.text()).toBe('ok')
  })
})
