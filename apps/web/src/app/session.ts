import { redirect } from 'react-router'
import { needsSecondFactor } from '@/features/auth/api/needs-second-factor'
import { getSession } from '@/features/auth/api/use-session'
import { withNext } from '@/lib/next-path'

/**
 * For loaders of signed-in pages: the session, or a redirect to sign in and come back. An
 * account with an authenticator app is signed in only once the session gave its code.
 */
export async function requireSession(request: Request) {
  const session = await getSession()
  if (!session || (await needsSecondFactor())) {
    const url = new URL(request.url)
    throw redirect(withNext('/sign-in', url.pathname + url.search))
  }
  return session
}
