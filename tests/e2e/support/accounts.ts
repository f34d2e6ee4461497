import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { DEFAULT_PUBLISHABLE_KEY } from '../../../packages/localbase/src/config/keys.ts'
import { PASSWORD } from './app.ts'

/** A person signed up through supabase-js (not the UI), with their own signed-in client. */
export async function signedUpClient(url: string, name: string, email: string) {
  const client = createClient(url, DEFAULT_PUBLISHABLE_KEY, { auth: { persistSession: false } })
  const { error } = await client.auth.signUp({
    email,
    password: PASSWORD,
    options: { data: { display_name: name } },
  })
  if (error) throw error
  return client
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
    .select('token')
    .single()
  if (inviteError) throw inviteError
  const accepted = await member.rpc('accept_invitation', { invitation_token: invitation.token })
  if (accepted.error) throw accepted.error
  return workspace.id as string
}
