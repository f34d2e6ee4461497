import { redirect } from 'react-router'
import { getSession } from '@/features/auth/api/use-session'
import { withNext } from '@/lib/next-path'

/** For loaders of signed-in pages: the session, or a redirect to sign in and come back. */
export async function requireSession(request: Request) {
  const session = await getSession()
  if (!session) {
    const url = new URL(request.url)
    throw redirect(withNext('/sign-in', url.pathname + url.search))
  }
  return session
}
