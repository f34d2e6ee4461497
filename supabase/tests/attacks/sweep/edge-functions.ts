import { DEFAULT_ANON_KEY } from '../../../../packages/localbase/src/index.ts'
import type { Stack, User } from '../../stack.ts'

/** POSTs `body` to an Edge Function as `user` (anonymous without one), as the web app does. */
export async function callFunction(
  stack: Stack,
  name: string,
  user: User | undefined,
  body: string,
) {
  const res = await fetch(`${stack.url}/functions/v1/${name}`, {
    method: 'POST',
    headers: {
      apikey: DEFAULT_ANON_KEY,
      Authorization: `Bearer ${user?.jwt ?? DEFAULT_ANON_KEY}`,
      'Content-Type': 'application/json',
    },
    body,
  })
  return { status: res.status, text: await res.text() }
}
