import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import {
  DEFAULT_ANON_KEY,
  DEFAULT_SERVICE_ROLE_KEY,
  type Localbase,
} from '../../../packages/localbase/src/index.ts'

// One evaluator per data dir, so a kept data dir is found again by these.
const email = 'library-eval@example.test'
const password = 'library-eval-password-1'
const workspaceName = 'Library evaluation'

export type LibraryWorkspace = {
  /** Signed in as the evaluator; refreshes its token, so runs may outlast one. */
  supabase: SupabaseClient
  workspaceId: string
  /** Whether the workspace already existed (a kept data dir). */
  reused: boolean
}

/**
 * Signs in as the evaluator (creating the user on a fresh data dir, as an admin would) and
 * opens its workspace (creating it, as the user: the creator becomes its owner).
 */
export async function openLibraryWorkspace(localbase: Localbase): Promise<LibraryWorkspace> {
  const supabase = createClient(localbase.url, DEFAULT_ANON_KEY, {
    auth: { persistSession: false, detectSessionInUrl: false },
  })
  let signIn = await supabase.auth.signInWithPassword({ email, password })
  if (signIn.error?.code === 'invalid_credentials') {
    const admin = createClient(localbase.url, DEFAULT_SERVICE_ROLE_KEY, {
      auth: { persistSession: false, autoRefreshToken: false },
    })
    const created = await admin.auth.admin.createUser({ email, password, email_confirm: true })
    if (created.error) throw new Error(`creating the evaluator: ${created.error.message}`)
    signIn = await supabase.auth.signInWithPassword({ email, password })
  }
  if (signIn.error) throw new Error(`signing in the evaluator: ${signIn.error.message}`)

  const found = await supabase
    .from('workspaces')
    .select('id')
    .eq('name', workspaceName)
    .maybeSingle<{ id: string }>()
  if (found.error) throw new Error(`finding the workspace: ${found.error.message}`)
  if (found.data) return { supabase, workspaceId: found.data.id, reused: true }
  const created = await supabase
    .from('workspaces')
    .insert({ name: workspaceName })
    .select('id')
    .single<{ id: string }>()
  if (created.error) throw new Error(`creating the workspace: ${created.error.message}`)
  return { supabase, workspaceId: created.data.id, reused: false }
}

/** The signed-in evaluator's current access token (refreshed as needed). */
export async function accessToken(supabase: SupabaseClient): Promise<string> {
  const { data, error } = await supabase.auth.getSession()
  if (error || !data.session) throw new Error(`no session: ${error?.message ?? 'signed out'}`)
  return data.session.access_token
}
