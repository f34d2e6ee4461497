import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { DEFAULT_PUBLISHABLE_KEY } from '../../../packages/localbase/src/config/keys.ts'
import { PASSWORD } from './app.ts'
import { latestMail } from './stack.ts'

/**
 * A person signed up through supabase-js (not the UI) and confirmed by opening the link in
 * their mail, with their own client signed in by the session that link hands back.
 */
export async function signedUpClient(url: string, name: string, email: string) {
  const client = createClient(url, DEFAULT_PUBLISHABLE_KEY, { auth: { persistSession: false } })
  const { error } = await client.auth.signUp({
    email,
    password: PASSWORD,
    options: { data: { display_name: name } },
  })
  if (error) throw error
  const mail = await latestMail(url, email, (link) => link.includes('type=signup'))
  const landing = await fetch(mail.link, { redirect: 'manual' })
  const fragment = new URLSearchParams(new URL(landing.headers.get('location')!).hash.slice(1))
  const confirmed = await client.auth.setSession({
    access_token: fragment.get('access_token') ?? '',
    refresh_token: fragment.get('refresh_token') ?? '',
  })
  if (confirmed.error) throw confirmed.error
  return client
}

/** The token of an invitation's link, which only the workspace's owners may read. */
async function invitationToken(owner: SupabaseClient, invitationId: string) {
  const { data, error } = await owner
    .from('workspace_invitation_tokens')
    .select('token')
    .eq('invitation_id', invitationId)
    .single()
  if (error) throw error
  return data.token as string
}

/** A workspace `owner` creates, and `member` joins with `role` through an invitation. */
export async function sharedWorkspace(
  owner: SupabaseClient,
  member: SupabaseClient,
  name: string,
  role: 'editor' | 'viewer',
) {
  const { data: workspace, error } = await owner
    .from('workspaces')
    .insert({ name })
    .select('id')
    .single()
  if (error) throw error
  const { data: me } = await member.auth.getUser()
  const { data: invitation, error: inviteError } = await owner
    .from('workspace_invitations')
    .insert({ workspace_id: workspace.id, email: me.user?.email, role })
    .select('id')
    .single()
  if (inviteError) throw inviteError
  const token = await invitationToken(owner, invitation.id)
  const accepted = await member.rpc('accept_invitation', { invitation_token: token })
  if (accepted.error) throw accepted.error
  return workspace.id as string
}
