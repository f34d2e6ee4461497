import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js'
import { clientFor, type Stack, type User } from './stack.ts'

export type Change = { eventType: string; new: Record<string, unknown> }

/**
 * Subscribes `user` to postgres_changes on one table, for one workspace's rows, collecting
 * them in `seen`; resolves once subscribed, with the client (remove its channels after).
 */
export async function watchChanges(
  stack: Stack,
  user: User,
  table: string,
  workspaceId: string,
  seen: Change[],
): Promise<SupabaseClient> {
  const client = clientFor(stack, user)
  await client.realtime.setAuth(user.jwt)
  await new Promise<RealtimeChannel>((resolve, reject) => {
    const channel = client
      .channel(`${table}-${user.id}`)
      .on(
        'postgres_changes',
        { event: '*', schema: 'public', table, filter: `workspace_id=eq.${workspaceId}` },
        (change) => seen.push(change as unknown as Change),
      )
      .subscribe((status, error) => {
        if (status === 'SUBSCRIBED') resolve(channel)
        else if (status !== 'CLOSED') reject(error ?? new Error(status))
      })
  })
  return client
}

/** Waits until `check` holds, for up to 10 s; the caller asserts what it expects after. */
export async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 50))
}
