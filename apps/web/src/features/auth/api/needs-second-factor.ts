import { isAuthRetryableFetchError } from '@supabase/supabase-js'
import { supabase } from '@/lib/supabase'

/**
 * Whether this session signed in with the password alone on an account that has an
 * authenticator app: it must still give a code. By default read from the session (its
 * token's `aal`, and its user's factors as of its last refresh), with no request to Auth:
 * cheap enough for every signed-in page's loader. `fresh` first brings the session up to
 * date with Auth, for the moments a stale copy misleads: an app added on another device ends
 * this password-only session there (Auth ends a user's AAL1 sessions when a factor is
 * verified), and one removed there lowers it. Afterwards every read agrees with Auth, so the
 * pages that read the copy cannot send the session back and forth.
 */
export async function needsSecondFactor({ fresh = false } = {}): Promise<boolean> {
  if (fresh && (await supabase.auth.getSession()).data.session) {
    const refreshed = await supabase.auth.refreshSession()
    // Refused: supabase-js keeps a session whose access token has not expired, so ask Auth
    // for its user, which signs the session out here when Auth ended it. Offline, the copy
    // is all there is.
    if (refreshed.error && !isAuthRetryableFetchError(refreshed.error)) {
      await supabase.auth.getUser()
    }
  }
  const { data, error } = await supabase.auth.mfa.getAuthenticatorAssuranceLevel()
  if (error) throw error
  return data.currentLevel === 'aal1' && data.nextLevel === 'aal2'
}
