import { type LoaderFunctionArgs, redirect } from 'react-router'
import { getSession } from '@/features/auth/api/use-session'
import { safeNextPath } from '@/lib/next-path'

/** Signed-out pages send a signed-in visitor on to where they were going. */
export async function redirectIfSignedIn({ request }: LoaderFunctionArgs) {
  if (await getSession()) {
    throw redirect(safeNextPath(new URL(request.url).searchParams.get('next')))
  }
  return null
}
