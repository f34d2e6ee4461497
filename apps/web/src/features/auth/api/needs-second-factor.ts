import { supabase } from '@/lib/supabase'

/**
 * Whether this session signed in with the password alone on an account that has an
 * authenticator app: it must still give a code. Read from the session (its token's `aal` and
 * its user's factors), with no request to Auth.
 */
export async function needsSecondFactor(): Promise<boolean> {
  const { data, error } = await supabase.auth.mfa.getAuthenticatorAssuranceLevel()
  if (error) throw error
  return data.currentLevel === 'aal1' && data.nextLevel === 'aal2'
}
