import { clientFor, createUser, type Stack, type User } from './stack.ts'

export const actors = ['anonymous', 'outsider', 'viewer', 'editor', 'owner'] as const
export type Actor = (typeof actors)[number]

export type People = Record<Exclude<Actor, 'anonymous'>, User>

/** One workspace with an owner, an editor, a viewer, a pending invitation and a ghost. */
export type World = {
  people: People
  workspaceId: string
  invitationId: string
  /** An auth user whose profile is missing, so a profile insert could succeed. */
  ghostId: string
}

export async function createPeople(stack: Stack): Promise<People> {
  return {
    owner: await createUser(stack, 'owner'),
    editor: await createUser(stack, 'editor'),
    viewer: await createUser(stack, 'viewer'),
    outsider: await createUser(stack, 'outsider'),
  }
}

/** A fresh world, written as the database owner (no RLS), for one matrix cell. */
export async function createWorld(stack: Stack, people: People): Promise<World> {
  const ghost = await createUser(stack, 'ghost')
  return stack.db.asService(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `insert into public.workspaces (name, created_by) values ('Matrix', $1) returning id`,
      [people.owner.id],
    )
    const workspaceId = rows[0]!.id
    await tx.query(
      `insert into public.workspace_members (workspace_id, user_id, role)
       values ($1, $2, 'editor'), ($1, $3, 'viewer')`,
      [workspaceId, people.editor.id, people.viewer.id],
    )
    const invitation = await tx.query<{ id: string }>(
      `insert into public.workspace_invitations (workspace_id, email, role, invited_by)
       values ($1, 'pending@example.test', 'viewer', $2) returning id`,
      [workspaceId, people.owner.id],
    )
    await tx.query('delete from public.profiles where id = $1', [ghost.id])
    return { people, workspaceId, invitationId: invitation.rows[0]!.id, ghostId: ghost.id }
  })
}

export function actorUser(world: World, actor: Actor): User | undefined {
  return actor === 'anonymous' ? undefined : world.people[actor]
}

/**
 * A ready document with one chunk per text (chunk n on pages n+1 to n+2), written through
 * supabase-js by `editor`, so RLS applies to the writes.
 */
export async function addReadyDocument(
  stack: Stack,
  editor: User,
  workspaceId: string,
  title: string,
  texts: string[],
): Promise<{ documentId: string; chunkIds: string[] }> {
  const client = clientFor(stack, editor)
  const doc = await client
    .from('documents')
    .insert({ workspace_id: workspaceId, title, status: 'ready', stage: 'ready' })
    .select('id')
    .single()
  if (doc.error) throw doc.error
  const documentId = (doc.data as { id: string }).id
  const rows = texts.map((content, ordinal) => ({
    document_id: documentId,
    workspace_id: workspaceId,
    ordinal,
    content,
    page_start: ordinal + 1,
    page_end: ordinal + 2,
  }))
  const chunks = await client.from('chunks').insert(rows).select('id').order('ordinal')
  if (chunks.error) throw chunks.error
  return { documentId, chunkIds: (chunks.data as { id: string }[]).map((c) => c.id) }
}
