// What bench:load and bench:load-kinds share: a localbase in a child process (its database
// jobs traced), a member with a library and conversations, and the requests the web app makes.
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import {
  DEFAULT_PUBLISHABLE_KEY,
  DEFAULT_SERVICE_ROLE_KEY,
} from '../packages/localbase/src/config/keys.ts'

export const root = fileURLToPath(new URL('..', import.meta.url))
export const noSession = {
  persistSession: false,
  autoRefreshToken: false,
  detectSessionInUrl: false,
}

// Questions a finance team would type; the same fixed list every run.
export const QUERIES = [
  'revenue growth',
  'operating income 2022',
  'cash flow from operations',
  'capital expenditures',
  'net income attributable',
  'dividends per share',
  'inventory turnover',
  'long-term debt maturities',
  'gross margin',
  'share repurchase program',
  'effective tax rate',
  'goodwill impairment',
]

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/**
 * `npm start`'s server on `port` in a child process, every database job appended to `trace`
 * when given; `node` adds flags. A bench stopped by a signal stops it too: `kill` reaches only
 * the bench, and an orphaned server would go on holding its port, data dir and a core.
 */
export async function startLocalbase(
  port: number,
  dataDir: string,
  trace?: string,
  node: string[] = [],
): Promise<ChildProcess> {
  const cli = join(root, 'packages/localbase/src/cli.ts')
  const args = [
    ...node,
    cli,
    'start',
    '--workdir',
    root,
    '--port',
    String(port),
    '--data-dir',
    dataDir,
  ]
  const env = trace ? { ...process.env, LOCALBASE_DB_TRACE: trace } : process.env
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'], env })
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      child.kill()
      process.exit(code)
    })
  }
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`localbase exited with ${child.exitCode}`)
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return child
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  child.kill()
  throw new Error('localbase did not start within 150 s')
}

export type Member = {
  admin: SupabaseClient
  /** Signed in as the member. */
  member: SupabaseClient
  token: string
  newWorkspace(name: string): Promise<string>
}

/** A confirmed member, signed in, who can make workspaces. */
export async function signUpMember(url: string): Promise<Member> {
  const email = `bench.${Date.now()}@example.test`
  const password = 'bench-password-1'
  const admin = createClient(url, DEFAULT_SERVICE_ROLE_KEY, { auth: noSession })
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true })
  if (created.error) throw created.error
  const member = createClient(url, DEFAULT_PUBLISHABLE_KEY, { auth: noSession })
  const signIn = await member.auth.signInWithPassword({ email, password })
  if (signIn.error) throw signIn.error
  const newWorkspace = async (name: string) => {
    const { data, error } = await member.from('workspaces').insert({ name }).select('id').single()
    if (error) throw error
    return data.id as string
  }
  return { admin, member, token: signIn.data.session!.access_token, newWorkspace }
}

/** Ten shared conversations to open: a question and an answer each, as chat leaves them. */
export async function seedConversations(
  { admin, member }: Member,
  workspaceId: string,
): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < 10; i++) {
    const { data, error } = await member
      .from('conversations')
      .insert({ workspace_id: workspaceId, title: `Question ${i + 1}`, visibility: 'shared' })
      .select('id')
      .single()
    if (error) throw error
    ids.push(data.id)
    const messages = await admin.from('messages').insert([
      {
        conversation_id: data.id,
        role: 'user',
        content: QUERIES[i % QUERIES.length]!,
        extractive: false,
      },
      {
        conversation_id: data.id,
        role: 'assistant',
        content: 'An answer with a citation [1].',
        extractive: true,
      },
    ])
    if (messages.error) throw messages.error
  }
  return ids
}

/** A client of its own (own connections) acting with the member's token, through `fetch`. */
export const memberClient = (url: string, token: string, fetch?: typeof globalThis.fetch) =>
  createClient(url, DEFAULT_PUBLISHABLE_KEY, {
    auth: noSession,
    global: { headers: { Authorization: `Bearer ${token}` }, ...(fetch ? { fetch } : {}) },
  })

export type Kind = 'list' | 'search' | 'conversation'
export const KINDS: Kind[] = ['list', 'search', 'conversation']

/** One request of each kind, as the web app makes it; throws on an error answer. */
export function requests(supabase: SupabaseClient, workspaceId: string, conversationIds: string[]) {
  return {
    list: async () => {
      const { error } = await supabase
        .from('documents')
        .select(
          'id, title, file_name, periods, mime_type, size_bytes, page_count, chunk_count, status, stage, progress, error, created_at, updated_at, created_by, replaces_id',
        )
        .eq('workspace_id', workspaceId)
        .order('created_at', { ascending: false })
        .order('id')
        .range(0, 999)
      if (error) throw error
    },
    search: async () => {
      const query = QUERIES[Math.floor(Math.random() * QUERIES.length)]!
      const { data, error } = await supabase.functions.invoke<{ results: unknown[] }>('search', {
        body: { workspace_id: workspaceId, query, limit: 20 },
      })
      if (error) throw error
      if (!Array.isArray(data?.results)) throw new Error('search answered without results')
    },
    conversation: async () => {
      const id = conversationIds[Math.floor(Math.random() * conversationIds.length)]!
      const [conversation, messages] = await Promise.all([
        supabase.from('conversations').select('*').eq('id', id).maybeSingle(),
        supabase
          .from('messages')
          .select(
            'id, conversation_id, role, content, citations, status, error, model, extractive, created_by, created_at, message_feedback(rating, comment)',
          )
          .eq('conversation_id', id)
          .order('created_at')
          .order('id'),
      ])
      if (conversation.error) throw conversation.error
      if (messages.error) throw messages.error
    },
  }
}
