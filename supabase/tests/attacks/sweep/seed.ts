import { randomBytes } from 'node:crypto'
import { ingestFile } from '../../../../packages/core/src/ingest/ingest-file.ts'
import { ask } from '../../chat-client.ts'
import { clientFor, createUser, type Stack, type User } from '../../stack.ts'

/**
 * The secret the sweep looks for: letters only, ending in a consonant no stemmer strips, so
 * it stays one intact lexeme wherever text is indexed. `probe` sits beside it in every text:
 * calls search for the probe, and a function that echoes its argument echoes only the probe.
 */
export function canaryWords() {
  const letters = 'bcdfghjklmnpqrstvwxz'
  const word = () =>
    [...randomBytes(10)].map((byte) => letters[byte % letters.length]).join('') + 'q'
  return { canary: `zq${word()}`, probe: `kestrel${word()}` }
}

/** A workspace its owner filled through the app's own paths, the canary in every text. */
export type Seeded = {
  owner: User
  workspaceId: string
  documentId: string
  storagePath: string
  conversationId: string
  messageIds: string[]
  invitationId: string
  /** The invitation's token (or whatever it stores of it): as secret as the canary. */
  tokens: string[]
  /** Every id of the workspace, by what it names. */
  ids: Record<string, string>
}

function must<T>(answer: { data: T; error: unknown }): NonNullable<T> {
  if (answer.error) throw new Error(`seeding failed: ${JSON.stringify(answer.error)}`)
  return answer.data as NonNullable<T>
}

export async function seedWorkspace(
  stack: Stack,
  { canary, probe }: { canary: string; probe: string },
): Promise<Seeded> {
  const owner = await createUser(stack, 'owner', { display_name: `Owner ${canary}` })
  const client = clientFor(stack, owner)
  const workspace = must(
    await client
      .from('workspaces')
      .insert({ name: `Team ${canary}` })
      .select('id')
      .single(),
  )
  const workspaceId = workspace.id as string

  // A document as the web app's ingest worker stores it: the original in Storage, the
  // documents row, its text, chunks and their BM25 statistics.
  const text = Array.from(
    { length: 12 },
    (_, i) => `Paragraph ${i}: the ${probe} ${canary} ledger was audited on day ${i}.\n\n`,
  ).join('')
  const ingested = await ingestFile(client, {
    workspaceId,
    bytes: new TextEncoder().encode(`# Notes ${canary}\n\n${text}`),
    fileName: `notes-${canary}.md`,
    mimeType: 'text/markdown',
  })
  if (ingested.status !== 'ready') throw new Error(`ingest: ${JSON.stringify(ingested)}`)
  const documentId = ingested.documentId
  const doc = must(
    await client.from('documents').select('storage_path').eq('id', documentId).single(),
  )

  // A shared conversation with a question and its (extractive) answer, and the owner's
  // rating of that answer.
  const conversation = must(
    await client
      .from('conversations')
      .insert({ workspace_id: workspaceId, title: `Audit ${canary}`, visibility: 'shared' })
      .select('id')
      .single(),
  )
  const conversationId = conversation.id as string
  const reply = await ask(stack, owner, {
    conversation_id: conversationId,
    content: `When was the ${probe} ${canary} ledger audited?`,
  })
  if (reply.status !== 200) throw new Error(`chat: ${reply.status} ${JSON.stringify(reply.body)}`)
  const messages = must(
    await client
      .from('messages')
      .select('id, role')
      .eq('conversation_id', conversationId)
      .order('created_at'),
  ) as { id: string; role: string }[]
  const answer = messages.find((m) => m.role === 'assistant')!
  must(
    await client
      .from('message_feedback')
      .insert({ message_id: answer.id, rating: 1, comment: `Spot on ${canary}` }),
  )

  const invitation = must(
    await client
      .from('workspace_invitations')
      .insert({ workspace_id: workspaceId, email: `${canary}@example.test`, role: 'editor' })
      .select('id')
      .single(),
  )
  // Whatever the invitation keeps of its link's token is as secret as the canary.
  const stored = await stack.db.pg.query<{ row: Record<string, unknown> }>(
    'select to_jsonb(i) as row from public.workspace_invitations i where id = $1',
    [invitation.id],
  )
  const tokens = Object.entries(stored.rows[0]!.row)
    .filter(([column, value]) => /token/.test(column) && typeof value === 'string')
    .map(([, value]) => value as string)

  const { rows } = await stack.db.pg.query<{ id: string; kind: string }>(
    `select id::text, 'chunk' as kind from public.chunks where workspace_id = $1
     union all select id::text, 'object' from storage.objects where name like $2`,
    [workspaceId, `${workspaceId}/%`],
  )
  const ids: Record<string, string> = {
    workspace: workspaceId,
    document: documentId,
    conversation: conversationId,
    invitation: invitation.id as string,
    owner: owner.id,
    ...Object.fromEntries(messages.map((m) => [`${m.role} message`, m.id])),
    ...Object.fromEntries(rows.map((r, i) => [`${r.kind} ${i}`, r.id])),
  }
  return {
    owner,
    workspaceId,
    documentId,
    storagePath: doc.storage_path as string,
    conversationId,
    messageIds: messages.map((m) => m.id),
    invitationId: invitation.id as string,
    tokens,
    ids,
  }
}

/** The owner's settings, with the canary: after the chats, which would look the models up. */
export async function seedSettings(stack: Stack, seeded: Seeded, canary: string) {
  must(
    await clientFor(stack, seeded.owner)
      .from('workspaces')
      .update({ chat_model: `openai:${canary}`, embedding_model: `openai:${canary}-embed` })
      .eq('id', seeded.workspaceId),
  )
}
