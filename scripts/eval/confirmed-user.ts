import { createClient } from '@supabase/supabase-js'
import { DEFAULT_ANON_KEY, DEFAULT_SERVICE_ROLE_KEY } from '../../packages/localbase/src/index.ts'

const noSession = { persistSession: false, autoRefreshToken: false }

/**
 * A fresh account on a local stack, confirmed from the start through Auth's admin API
 * (sign-ups wait for a mailed link now), and a client signed in as it.
 */
export async function signInConfirmedUser(url: string, email: string, password: string) {
  const admin = createClient(url, DEFAULT_SERVICE_ROLE_KEY, { auth: noSession })
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true })
  if (created.error) throw new Error(`creating the user: ${created.error.message}`)
  const supabase = createClient(url, DEFAULT_ANON_KEY, { auth: noSession })
  const { data, error } = await supabase.auth.signInWithPassword({ email, password })
  if (error) throw new Error(`signing in: ${error.message}`)
  return { supabase, session: data.session }
}
