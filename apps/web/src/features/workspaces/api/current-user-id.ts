import { supabase } from '@/lib/supabase'

/** The signed-in user's id, from the stored session (no request). */
export async function currentUserId(): Promise<string> {
  const { data } = await supabase.auth.getSession()
  const id = data.session?.user.id
  if (!id) throw Object.assign(new Error('Sign in to continue.'), { status: 401 })
  return id
}
