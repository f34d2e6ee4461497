import { supabase } from '@/lib/supabase'

let counter = 0

/** A fresh address per call, so tests never collide on the shared localbase. */
export function uniqueEmail(name = 'user') {
  counter += 1
  return `${name}-${Date.now().toString(36)}-${counter}@example.com`
}

export const PASSWORD = 'correct horse battery staple'

/** Signs a new person up through the app's own client, leaving them signed in. */
export async function signUpAs(name = 'user', email = uniqueEmail(name)) {
  const { data, error } = await supabase.auth.signUp({
    email,
    password: PASSWORD,
    options: { data: { display_name: name } },
  })
  if (error) throw error
  if (!data.session) throw new Error('expected sign-up to return a session')
  return { email, userId: data.session.user.id }
}

export async function signInAs(email: string) {
  const { error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD })
  if (error) throw error
}

export async function signOutLocally() {
  await supabase.auth.signOut({ scope: 'local' })
}
