import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, describe, expect, it } from 'vitest'
import { clientFor, createUser, serviceAvailable, startStack } from './stack.ts'
import { type Change, until, watchChanges } from './watch-changes.ts'

// workspace_members is in the supabase_realtime publication, so the member list and the
// signed-in user's role update live, for members only (RLS applies to postgres_changes).
const stack = await startStack()
const ready =
  (await serviceAvailable(stack, '/realtime/v1/websocket')) &&
  (await serviceAvailable(stack, '/rest/v1/workspaces?select=id&limit=0'))
const clients: SupabaseClient[] = []
afterAll(async () => {
  await Promise.all(clients.map((client) => client.removeAllChannels()))
  await stack.stop()
})

describe.skipIf(!ready)('membership changes over realtime', () => {
  it('reach the members of the workspace, not outsiders', async () => {
    const [owner, member, outsider] = [
      await createUser(stack, 'owner'),
      await createUser(stack, 'member'),
      await createUser(stack, 'outsider'),
    ]
    const { data: workspace } = await clientFor(stack, owner)
      .from('workspaces')
      .insert({ name: 'Live' })
      .select()
      .single()
    await stack.db.pg.query(
      `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'viewer')`,
      [workspace.id, member.id],
    )
    const memberSaw: Change[] = []
    const outsiderSaw: Change[] = []
    clients.push(
      await watchChanges(stack, member, 'workspace_members', workspace.id, memberSaw),
      await watchChanges(stack, outsider, 'workspace_members', workspace.id, outsiderSaw),
    )

    const { error } = await clientFor(stack, owner)
      .from('workspace_members')
      .update({ role: 'editor' })
      .eq('workspace_id', workspace.id)
      .eq('user_id', member.id)
    expect(error).toBeNull()
    await until(() => memberSaw.length > 0)
    expect(memberSaw).toMatchObject([
      { eventType: 'UPDATE', new: { user_id: member.id, role: 'editor' } },
    ])
    // Both subscriptions are served by the same delivery pass; give it a moment more.
    await new Promise((r) => setTimeout(r, 300))
    expect(outsiderSaw).toEqual([])
  })
})
