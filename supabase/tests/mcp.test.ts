import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeProvider } from '../../tests/fake-provider/server.ts'
import { connectMcp, textOf } from './mcp-client.ts'
import { clientFor, startStack, type User } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// The mcp function on localbase, driven by the official MCP SDK client with access tokens.
// A fake OpenAI at the HTTP boundary answers when a workspace has a chat model.
const fake = await startFakeProvider({ instant: true })
const stack = await startStack({
  ACCESS_TOKEN_RATE_LIMIT_PER_MINUTE: '30',
  OPENAI_API_KEY: 'test',
  OPENAI_BASE_URL: `${fake.url}/v1`,
})
afterAll(async () => {
  await stack.stop()
  await fake.close()
})

let people: People
let workspaceId: string
let otherWorkspaceId: string
let herbarium: { documentId: string; chunkIds: string[] }

async function tokenOf(user: User, workspace = workspaceId, scope: 'read' | 'write' = 'read') {
  const { data, error } = await clientFor(stack, user).rpc('create_access_token', {
    workspace_id: workspace,
    name: 'mcp',
    scope,
    expires_in_days: null,
  })
  if (error) throw error
  return data as { id: string; token: string }
}

type Structured<T> = { structuredContent: T; isError?: boolean }

beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
  otherWorkspaceId = (await createWorld(stack, people)).workspaceId
  herbarium = await addReadyDocument(stack, people.editor, workspaceId, 'Herbarium notes', [
    'Pressed ferns were mounted on acid-free card and labelled with the collector.',
    'The mangrove samples from the estuary were dried slowly to keep their leaves intact.',
    'Mosses need no pressing; they are kept loose in paper packets.',
  ])
  await addReadyDocument(stack, people.editor, workspaceId, 'Voyage log', [
    'We anchored near the estuary at dawn; the crew went ashore for water.',
  ])
  // The canary: only the other workspace holds it.
  await addReadyDocument(stack, people.owner, otherWorkspaceId, 'Canary ledger', [
    'The canary phrase is tangerine lighthouse.',
  ])
})

describe('the MCP server', () => {
  it('initializes at the current protocol version and lists its tools with schemas', async () => {
    const client = await connectMcp(stack.url, (await tokenOf(people.viewer)).token)
    expect(client.getServerVersion()).toMatchObject({ name: 'sourcebook' })
    expect(client.getInstructions()).toMatch(/not instructions/)
    const { tools } = await client.listTools()
    // A read token: no upload_document.
    expect(tools.map((t) => t.name).sort()).toEqual([
      'ask',
      'get_document',
      'list_documents',
      'read_passage',
      'search',
    ])
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(40)
      expect(tool.inputSchema.type).toBe('object')
    }
    const search = tools.find((t) => t.name === 'search')!
    expect(search.inputSchema.required).toEqual(['query'])
    expect(Object.keys(search.inputSchema.properties!)).toEqual([
      'query',
      'limit',
      'document_ids',
      'types',
    ])
    await client.close()
  })

  it('negotiates the latest protocol version over plain HTTP, with JSON answers', async () => {
    const { token } = await tokenOf(people.viewer)
    const res = await fetch(`${stack.url}/functions/v1/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'curl', version: '1' },
        },
      }),
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('mcp-session-id')).toBeNull()
    const body = (await res.json()) as { result: { protocolVersion: string } }
    expect(body.result.protocolVersion).toBe('2025-11-25')

    const get = await fetch(`${stack.url}/functions/v1/mcp`, {
      headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
    })
    expect(get.status).toBe(405)
    await get.body?.cancel()
  })

  it('searches, with titles, pages, scores and links into the app', async () => {
    const client = await connectMcp(stack.url, (await tokenOf(people.viewer)).token)
    const result = (await client.callTool({
      name: 'search',
      arguments: { query: 'dried mangrove samples', limit: 5 },
    })) as unknown as Structured<{ passages: Record<string, unknown>[] }>
    expect(result.isError).toBeFalsy()
    const first = result.structuredContent.passages[0]!
    expect(first).toMatchObject({
      title: 'Herbarium notes',
      document_id: herbarium.documentId,
      chunk_id: herbarium.chunkIds[1],
      pages: 'pp. 2–3',
      link: `${stack.url}/w/${workspaceId}/documents/${herbarium.documentId}?chunk=${herbarium.chunkIds[1]}`,
    })
    expect(first.score).toBeGreaterThan(0)
    expect(textOf(result)).toContain('Herbarium notes, pp. 2–3')
    await client.close()
  })

  it('answers a question with numbered citations', async () => {
    const client = await connectMcp(stack.url, (await tokenOf(people.viewer)).token)
    const result = (await client.callTool({
      name: 'ask',
      arguments: { question: 'How were the mangrove samples dried?' },
    })) as unknown as Structured<{
      answer: string
      citations: Record<string, unknown>[]
      conversation_link: string
    }>
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent.answer).toContain('dried slowly')
    expect(result.structuredContent.answer).toContain('[1]')
    expect(result.structuredContent.citations[0]).toMatchObject({
      n: 1,
      title: 'Herbarium notes',
      pages: 'pp. 2–3',
      document_id: herbarium.documentId,
    })
    expect(result.structuredContent.citations[0]!.quote).toContain('mangrove')
    expect(textOf(result)).toMatch(/Sources:\n\[1\] Herbarium notes, pp\. 2–3: “/)
    // The conversation is the viewer's own, private, and readable in the app.
    const conversations = await clientFor(stack, people.viewer)
      .from('conversations')
      .select('title, visibility')
      .eq('workspace_id', workspaceId)
    expect(conversations.data).toContainEqual({
      title: 'How were the mangrove samples dried?',
      visibility: 'private',
    })
    await client.close()
  })

  it('answers through the workspace’s chat model, streamed and gathered', async () => {
    const modelled = await createWorld(stack, people)
    const notes = await addReadyDocument(stack, people.editor, modelled.workspaceId, 'Press log', [
      'Ferns from the north ridge were pressed for nine days under blotting paper.',
    ])
    await stack.db.pg.query(`update public.workspaces set chat_model = $2 where id = $1`, [
      modelled.workspaceId,
      'openai:gpt-4.1-mini',
    ])
    const reply = 'The ferns were pressed for nine days under blotting paper [1].'
    fake.script({ reply })
    const client = await connectMcp(
      stack.url,
      (await tokenOf(people.viewer, modelled.workspaceId)).token,
    )
    const result = (await client.callTool({
      name: 'ask',
      arguments: { question: 'How long were the ferns pressed?' },
    })) as unknown as Structured<{ answer: string; citations: Record<string, unknown>[] }>
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent.answer).toBe(reply)
    expect(result.structuredContent.citations).toEqual([
      expect.objectContaining({ n: 1, title: 'Press log', chunk_id: notes.chunkIds[0] }),
    ])
    expect(fake.requests.filter((r) => r.kind === 'chat')).toHaveLength(1)
    await client.close()
  })

  it('passes on the chat’s own limit as a tool error, leaving no empty conversation', async () => {
    await stack.db.pg.query(
      `insert into public.chat_rate_limits (user_id, window_start, turns) values ($1, now(), 999)
       on conflict (user_id) do update set window_start = now(), turns = 999`,
      [people.owner.id],
    )
    const client = await connectMcp(stack.url, (await tokenOf(people.owner)).token)
    const result = await client.callTool({
      name: 'ask',
      arguments: { question: 'Which mosses need no pressing?' },
    })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/^You are asking too quickly/)
    const { rows } = await stack.db.pg.query(
      `select 1 from public.conversations where title = 'Which mosses need no pressing?'`,
    )
    expect(rows).toEqual([])
    await client.close()
  })

  it('asks within document_ids only: a canary outside the scope is never read', async () => {
    const scoped = await createWorld(stack, people)
    const fieldNotes = await addReadyDocument(
      stack,
      people.editor,
      scoped.workspaceId,
      'Field notes',
      ['The lichens on the north wall were photographed before sampling.'],
    )
    const canary = await addReadyDocument(
      stack,
      people.editor,
      scoped.workspaceId,
      'Scope canary',
      ['The scope canary phrase is violet harbour; the lichens were never sampled.'],
    )
    const client = await connectMcp(
      stack.url,
      (await tokenOf(people.viewer, scoped.workspaceId)).token,
    )
    type Answer = Structured<{ answer: string; citations: { document_id: string }[] }>
    const question = 'What is the scope canary phrase about the lichens?'
    // Unscoped, the canary is what answers: the scoped answer below can tell the difference.
    const open = (await client.callTool({
      name: 'ask',
      arguments: { question },
    })) as unknown as Answer
    expect(open.isError).toBeFalsy()
    expect(open.structuredContent.citations.map((c) => c.document_id)).toContain(canary.documentId)

    const result = (await client.callTool({
      name: 'ask',
      arguments: { question, document_ids: [fieldNotes.documentId] },
    })) as unknown as Answer
    expect(result.isError).toBeFalsy()
    expect(textOf(result)).not.toMatch(/violet harbour/)
    expect(result.structuredContent.citations.length).toBeGreaterThan(0)
    for (const citation of result.structuredContent.citations) {
      expect(citation.document_id).toBe(fieldNotes.documentId)
    }
    // The private conversation keeps the scope, so a follow-up in the app stays within it.
    const { rows } = await stack.db.pg.query(
      `select document_ids from public.conversations where workspace_id = $1 and created_by = $2
       order by created_at desc limit 1`,
      [scoped.workspaceId, people.viewer.id],
    )
    expect(rows).toEqual([{ document_ids: [fieldNotes.documentId] }])
    await client.close()
  })

  it('refuses document_ids of another workspace or of no document, naming them', async () => {
    const client = await connectMcp(stack.url, (await tokenOf(people.viewer)).token)
    const { rows } = await stack.db.pg.query(
      `select id from public.documents where workspace_id = $1 and title = 'Canary ledger'`,
      [otherWorkspaceId],
    )
    const foreign = (rows[0] as { id: string }).id
    const nothing = '00000000-0000-4000-8000-000000000000'
    const before = await stack.db.pg.query(`select count(*)::int as n from public.conversations`)
    for (const name of ['ask', 'search']) {
      const key = name === 'ask' ? 'question' : 'query'
      const result = await client.callTool({
        name,
        arguments: {
          [key]: 'tangerine lighthouse',
          document_ids: [herbarium.documentId, foreign, nothing],
        },
      })
      expect(result.isError).toBe(true)
      expect(textOf(result)).toBe(
        `No such document in this workspace: ${foreign}, ${nothing}. Use list_documents to find the ids.`,
      )
      const invalid = await client.callTool({
        name,
        arguments: { [key]: 'ferns', document_ids: ['herbarium'] },
      })
      expect(invalid.isError).toBe(true)
      expect(textOf(invalid)).toMatch(/document_ids must be document ids \(UUIDs\)/)
      const empty = await client.callTool({ name, arguments: { [key]: 'ferns', document_ids: [] } })
      expect(empty.isError).toBe(true)
      expect(textOf(empty)).toMatch(/document_ids must name at least one document/)
    }
    // A refused ask starts no conversation.
    const after = await stack.db.pg.query(`select count(*)::int as n from public.conversations`)
    expect(after.rows).toEqual(before.rows)
    await client.close()
  })

  it('searches within document_ids and types', async () => {
    const client = await connectMcp(stack.url, (await tokenOf(people.viewer)).token)
    type Passages = Structured<{ passages: { document_id: string; title: string }[] }>
    const query = 'estuary'
    const all = (await client.callTool({
      name: 'search',
      arguments: { query },
    })) as unknown as Passages
    expect(new Set(all.structuredContent.passages.map((p) => p.title))).toEqual(
      new Set(['Herbarium notes', 'Voyage log']),
    )
    const scoped = (await client.callTool({
      name: 'search',
      arguments: { query, document_ids: [herbarium.documentId] },
    })) as unknown as Passages
    expect(scoped.structuredContent.passages.map((p) => p.title)).toEqual(['Herbarium notes'])

    await stack.db.pg.query(`update public.documents set mime_type = 'text/csv' where id = $1`, [
      herbarium.documentId,
    ])
    try {
      const typed = (await client.callTool({
        name: 'search',
        arguments: { query, types: ['csv'] },
      })) as unknown as Passages
      expect(typed.structuredContent.passages.map((p) => p.title)).toEqual(['Herbarium notes'])
      const none = (await client.callTool({
        name: 'search',
        arguments: { query, document_ids: [herbarium.documentId], types: ['pdf'] },
      })) as unknown as Passages
      expect(none.structuredContent.passages).toEqual([])
      expect(textOf(none)).toBe('No passage matches “estuary”.')
    } finally {
      await stack.db.pg.query(`update public.documents set mime_type = null where id = $1`, [
        herbarium.documentId,
      ])
    }
    await client.close()
  })

  it('lists documents page by page and describes one', async () => {
    const client = await connectMcp(stack.url, (await tokenOf(people.viewer)).token)
    const first = (await client.callTool({
      name: 'list_documents',
      arguments: { limit: 1 },
    })) as unknown as Structured<{ documents: { title: string }[]; nextCursor?: string }>
    expect(first.structuredContent.documents).toHaveLength(1)
    expect(first.structuredContent.nextCursor).toBe('1')
    const second = (await client.callTool({
      name: 'list_documents',
      arguments: { limit: 5, cursor: first.structuredContent.nextCursor },
    })) as unknown as Structured<{ documents: { title: string }[]; nextCursor?: string }>
    expect(second.structuredContent.nextCursor).toBeUndefined()
    const titles = [...first.structuredContent.documents, ...second.structuredContent.documents]
    expect(titles.map((d) => d.title).sort()).toEqual(['Herbarium notes', 'Voyage log'])

    const filtered = await client.callTool({
      name: 'list_documents',
      arguments: { query: 'herb' },
    })
    expect(textOf(filtered)).toContain('Herbarium notes')
    expect(textOf(filtered)).not.toContain('Voyage log')

    const described = (await client.callTool({
      name: 'get_document',
      arguments: { document_id: herbarium.documentId },
    })) as unknown as Structured<{ document: Record<string, unknown>; outline: unknown[] }>
    expect(described.structuredContent.document).toMatchObject({
      id: herbarium.documentId,
      title: 'Herbarium notes',
      status: 'ready',
      link: `${stack.url}/w/${workspaceId}/documents/${herbarium.documentId}`,
    })
    await client.close()
  })

  it('reads around a passage, and at a page', async () => {
    const client = await connectMcp(stack.url, (await tokenOf(people.viewer)).token)
    const around = (await client.callTool({
      name: 'read_passage',
      arguments: { document_id: herbarium.documentId, chunk_id: herbarium.chunkIds[1] },
    })) as unknown as Structured<{ passages: { chunk_id: string; text: string }[] }>
    expect(around.structuredContent.passages.map((p) => p.chunk_id)).toEqual(herbarium.chunkIds)
    const atPage = (await client.callTool({
      name: 'read_passage',
      arguments: { document_id: herbarium.documentId, page: 1 },
    })) as unknown as Structured<{ passages: { chunk_id: string; text: string }[] }>
    expect(atPage.structuredContent.passages.map((p) => p.chunk_id)).toEqual([
      herbarium.chunkIds[0],
    ])
    expect(textOf(atPage)).toContain('Pressed ferns')
    await client.close()
  })

  it('offers documents as sourcebook:// resources, read as the member', async () => {
    const client = await connectMcp(stack.url, (await tokenOf(people.viewer)).token)
    const { resources } = await client.listResources()
    expect(resources.map((r) => r.name).sort()).toEqual(['Herbarium notes', 'Voyage log'])
    const uri = `sourcebook://documents/${herbarium.documentId}`
    expect(resources.map((r) => r.uri)).toContain(uri)
    const read = await client.readResource({ uri })
    const text = (read.contents[0] as { text: string }).text
    expect(text).toMatch(/^# Herbarium notes\n\nPressed ferns/)
    expect(text).toContain('Mosses need no pressing')
    await expect(
      client.readResource({ uri: 'sourcebook://documents/00000000-0000-4000-8000-000000000000' }),
    ).rejects.toThrow(/No such document in this workspace/)
    await client.close()
  })

  it('answers bad arguments and unknown documents with human messages, not traces', async () => {
    const client = await connectMcp(stack.url, (await tokenOf(people.viewer)).token)
    const missing = await client.callTool({
      name: 'get_document',
      arguments: { document_id: '00000000-0000-4000-8000-000000000000' },
    })
    expect(missing.isError).toBe(true)
    expect(textOf(missing)).toBe('No such document in this workspace')
    const invalid = await client.callTool({ name: 'search', arguments: { query: '' } })
    expect(invalid.isError).toBe(true)
    expect(textOf(invalid)).toMatch(/the query must not be empty/)
    expect(textOf(invalid)).not.toMatch(/\bat .*\.ts:\d+/)
    const unknown = await client.callTool({ name: 'delete_everything', arguments: {} })
    expect(unknown.isError).toBe(true)
    expect(textOf(unknown)).toMatch(/Tool delete_everything not found/)
    await client.close()
  })
})

describe('upload_document', () => {
  const markdown = (text: string) => Buffer.from(text).toString('base64')

  it('adds a document with a write token, searchable at once, and not twice', async () => {
    const client = await connectMcp(
      stack.url,
      (await tokenOf(people.editor, workspaceId, 'write')).token,
    )
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toContain('upload_document')
    const content = markdown(
      '# Lichens\n\nCrustose lichens grow on the north face of the granite boulders.\n',
    )
    const added = (await client.callTool({
      name: 'upload_document',
      arguments: { name: 'lichens.md', content_base64: content },
    })) as unknown as Structured<{ status: string; document_id: string; passages: number }>
    expect(added.isError).toBeFalsy()
    expect(added.structuredContent).toMatchObject({ status: 'ready', passages: 1 })
    const { rows } = await stack.db.pg.query<{
      created_by: string
      title: string
      file_name: string
    }>('select created_by, title, file_name from public.documents where id = $1', [
      added.structuredContent.document_id,
    ])
    expect(rows[0]).toEqual({
      created_by: people.editor.id,
      title: 'Lichens',
      file_name: 'lichens.md',
    })

    const found = (await client.callTool({
      name: 'search',
      arguments: { query: 'crustose lichens granite' },
    })) as unknown as Structured<{ passages: { title: string }[] }>
    expect(found.structuredContent.passages[0]?.title).toBe('Lichens')

    const again = (await client.callTool({
      name: 'upload_document',
      arguments: { name: 'copy.md', content_base64: content },
    })) as unknown as Structured<{ status: string; document_id: string }>
    expect(again.structuredContent).toEqual({
      status: 'duplicate',
      document_id: added.structuredContent.document_id,
      link: expect.any(String),
    })
    const refused = await client.callTool({
      name: 'upload_document',
      arguments: { name: 'picture.png', content_base64: markdown('not a picture') },
    })
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toMatch(/^Sourcebook refused the file: /)
    await client.close()
  })

  it('is not offered to a viewer’s token, even one whose scope was forged to write', async () => {
    const { id, token } = await tokenOf(people.viewer)
    const client = await connectMcp(stack.url, token)
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).not.toContain('upload_document')
    const offered = await client.callTool({
      name: 'upload_document',
      arguments: { name: 'x.md', content_base64: markdown('# X') },
    })
    expect(offered.isError).toBe(true)
    expect(textOf(offered)).toMatch(/Tool upload_document not found/)

    // Were the stored scope forged to write, each use reads the person's role again.
    await stack.db.pg.query(`update public.access_tokens set scope = 'write' where id = $1`, [id])
    const forged = await connectMcp(stack.url, token)
    expect((await forged.listTools()).tools.map((t) => t.name)).not.toContain('upload_document')
    await forged.close()
    await client.close()
  })

  it('stops offering upload once the editor is lowered to viewer', async () => {
    const fresh = await createWorld(stack, people)
    const client = await connectMcp(
      stack.url,
      (await tokenOf(people.editor, fresh.workspaceId, 'write')).token,
    )
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('upload_document')
    await clientFor(stack, people.owner)
      .from('workspace_members')
      .update({ role: 'viewer' })
      .eq('workspace_id', fresh.workspaceId)
      .eq('user_id', people.editor.id)
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('upload_document')
    await client.close()
  })
})

describe('who a token reaches', () => {
  it('an outsider’s token sees nothing of the workspace (canary)', async () => {
    // The outsider's own workspace, where their token is valid: the canary never shows.
    const own = await clientFor(stack, people.outsider)
      .from('workspaces')
      .insert({ name: 'Elsewhere', created_by: people.outsider.id })
      .select('id')
      .single()
    const client = await connectMcp(
      stack.url,
      (await tokenOf(people.outsider, (own.data as { id: string }).id)).token,
    )
    const found = (await client.callTool({
      name: 'search',
      arguments: { query: 'tangerine lighthouse mangrove' },
    })) as unknown as Structured<{ passages: unknown[] }>
    expect(found.structuredContent.passages).toEqual([])
    expect(textOf(found)).not.toMatch(/Canary|Herbarium/)
    const listed = await client.callTool({ name: 'list_documents', arguments: {} })
    expect(textOf(listed)).toBe('This workspace has no documents yet.')
    expect((await client.listResources()).resources).toEqual([])
    await expect(
      client.readResource({ uri: `sourcebook://documents/${herbarium.documentId}` }),
    ).rejects.toThrow(/No such document/)
    const read = await client.callTool({
      name: 'read_passage',
      arguments: { document_id: herbarium.documentId },
    })
    expect(read.isError).toBe(true)
    await client.close()
  })

  it('a token reads only its own workspace, even for a member of both', async () => {
    const client = await connectMcp(stack.url, (await tokenOf(people.owner)).token)
    const found = await client.callTool({
      name: 'search',
      arguments: { query: 'tangerine lighthouse' },
    })
    expect(textOf(found)).not.toMatch(/Canary/)
    await client.close()
  })

  it('refuses revoked, expired and unknown tokens with a clean 401', async () => {
    const revoked = await tokenOf(people.viewer)
    await clientFor(stack, people.viewer).rpc('revoke_access_token', { id: revoked.id })
    await expect(connectMcp(stack.url, revoked.token)).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('This access token is unknown or has been revoked'),
    })
    const expired = await tokenOf(people.viewer)
    await stack.db.pg.query(
      `update public.access_tokens set expires_at = now() - interval '1 second' where id = $1`,
      [expired.id],
    )
    await expect(connectMcp(stack.url, expired.token)).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('This access token has expired'),
    })
    await expect(connectMcp(stack.url, 'sbk_nothing')).rejects.toMatchObject({ code: 401 })
    // A session JWT is not a workspace token.
    await expect(connectMcp(stack.url, people.viewer.jwt)).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('workspace access token'),
    })
  })

  it('stops a removed member’s open client at its next request', async () => {
    const fresh = await createWorld(stack, people)
    const client = await connectMcp(
      stack.url,
      (await tokenOf(people.viewer, fresh.workspaceId)).token,
    )
    await client.listTools()
    await clientFor(stack, people.owner)
      .from('workspace_members')
      .delete()
      .eq('workspace_id', fresh.workspaceId)
      .eq('user_id', people.viewer.id)
    await expect(client.listTools()).rejects.toMatchObject({ code: 401 })
  })

  it('limits requests per token with 429 and Retry-After', async () => {
    const { token } = await tokenOf(people.viewer)
    const post = () =>
      fetch(`${stack.url}/functions/v1/mcp`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      })
    for (let i = 0; i < 30; i++) {
      const res = await post()
      expect(res.status).toBe(200)
      await res.body?.cancel()
    }
    const limited = await post()
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await limited.json()).toMatchObject({ code: 'rate_limited' })
  })
})
