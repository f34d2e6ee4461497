// Mails a workspace invitation: POST { invitation_id, redirect_to } with the owner's JWT.
// The invitation and its link's token are read as the caller, through RLS, which shows
// them to the workspace's owners only; the service key is used for Auth's mail only,
// never for reading.
import { createClient } from 'npm:@supabase/supabase-js@2.119.1'
import { corsHeaders, fail, reply } from '../_shared/http.ts'
import { readInput } from './input.ts'
import { mailInvitation } from './mail.ts'

const url = Deno.env.get('SUPABASE_URL')!
const anonKey = Deno.env.get('SUPABASE_ANON_KEY')!
const serviceKey = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!
const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }

Deno.serve(async (req) => {
  if (req.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders })
  if (req.method !== 'POST') return fail(405, 'method_not_allowed', 'Use POST')
  const read = await readInput(req)
  if ('problem' in read) return fail(400, 'invalid_input', read.problem)
  const { invitation_id: invitationId, redirect_to: redirectTo } = read.input
  // A browser names the page's origin; a link to any other site is refused.
  const origin = req.headers.get('origin')
  if (origin && origin !== new URL(redirectTo).origin) {
    return fail(403, 'redirect_not_allowed', 'redirect_to must be the origin of the calling app')
  }

  const caller = createClient(url, anonKey, {
    auth: noSession,
    global: { headers: { Authorization: req.headers.get('Authorization')! } },
  })
  const { data: invitation, error } = await caller
    .from('workspace_invitations')
    .select(
      'id, email, role, workspace_id, accepted_at, expires_at, workspaces(name), secret:workspace_invitation_tokens(token)',
    )
    .eq('id', invitationId)
    .maybeSingle()
  // 42501: an anonymous caller may not read invitation links at all. Postgres 15 says so even
  // when RLS leaves no invitation to embed them in (newer versions answer no rows): the
  // same answer as no invitation either way.
  if (error?.code === '42501') return fail(404, 'invitation_not_found', 'No such invitation')
  if (error) return fail(502, 'read_failed', `Could not read the invitation: ${error.message}`)
  // Untyped, PostgREST's to-one embeds read as lists; each is one object at run time.
  const token = [invitation?.secret].flat()[0]?.token
  if (!invitation || !token) return fail(404, 'invitation_not_found', 'No such invitation')
  if (invitation.accepted_at)
    return fail(409, 'invitation_accepted', 'This invitation was already accepted')
  if (new Date(invitation.expires_at) <= new Date()) {
    return fail(409, 'invitation_expired', 'This invitation has expired: resend it for a new link')
  }

  const workspaceName = [invitation.workspaces].flat()[0]?.name ?? ''
  // The mail names whoever sends it: the signed-in owner, by the name on their profile.
  const { data: who } = await caller.auth.getUser()
  const { data: profile } = await caller
    .from('profiles')
    .select('display_name')
    .eq('id', who.user?.id ?? '')
    .maybeSingle()
  const inviterName = profile?.display_name ?? 'A Sourcebook user'
  const admin = createClient(url, serviceKey, { auth: noSession })
  try {
    return reply(
      await mailInvitation(
        admin,
        { ...invitation, token, workspaceName, inviterName },
        new URL(redirectTo).origin,
      ),
    )
  } catch (cause) {
    const { status, message } = cause as { status?: number; message?: string }
    // Auth's own limits (429) pass through; anything else is a failed upstream call.
    return fail(status === 429 ? 429 : 502, 'mail_failed', `Could not send the mail: ${message}`)
  }
})
