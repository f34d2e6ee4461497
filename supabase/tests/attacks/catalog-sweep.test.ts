import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ask } from '../chat-client.ts'
import { clientFor, createUser, startStack, type User } from '../stack.ts'
import { until } from '../watch-changes.ts'
import { argumentSets } from './sweep/arguments.ts'
import {
  appTopics,
  buckets,
  edgeFunctions,
  exposedFunctions,
  exposedRelations,
  publishedTables,
  tablesWithoutRls,
} from './sweep/catalog.ts'
import { Findings } from './sweep/findings.ts'
import { callFunction } from './sweep/edge-functions.ts'
import { type Listener, listen, speak, touchEveryRow } from './sweep/realtime.ts'
import { canaryWords, type Seeded, seedSettings, seedWorkspace } from './sweep/seed.ts'
import { snapshot } from './sweep/snapshot.ts'
import { storageReads } from './sweep/storage.ts'

// Everything the API exposes, swept as an outsider (signed in, not a member) and as an
// anonymous caller: every table and view, every function, every bucket, every published
// table and every channel the app uses, all listed from the catalog and the sources at run
// time. One workspace, filled by its owner through the app's own paths, holds a canary in
// every text; no attacker's answer may hold it (or an id of the workspace it was not given),
// nothing may fail with a 5xx, and the owner must see the canary through the same calls.

const stack = await startStack()
afterAll(() => stack.stop())

const { canary, probe } = canaryWords()
let seeded: Seeded
let findings: Findings
let attackers: { name: string; user?: User; client: SupabaseClient }[]
let owner: SupabaseClient

beforeAll(async () => {
  seeded = await seedWorkspace(stack, { canary, probe })
  findings = new Findings(canary, seeded.tokens, seeded.ids)
  const outsider = await createUser(stack, 'outsider')
  attackers = [
    { name: 'outsider', user: outsider, client: clientFor(stack, outsider) },
    { name: 'anonymous', client: clientFor(stack) },
  ]
  owner = clientFor(stack, seeded.owner)
})

/** Runs `call` for each item, a few at a time. */
async function each<T>(items: T[], call: (item: T) => Promise<void>, at = 6) {
  for (let i = 0; i < items.length; i += at) await Promise.all(items.slice(i, i + at).map(call))
}

/** Runs the attackers' calls, then checks they changed nothing of the workspace. */
async function sweepAttackers(sweep: () => Promise<void>) {
  const needles = [seeded.workspaceId, seeded.owner.id]
  const before = await snapshot(stack, needles)
  await sweep()
  expect(await snapshot(stack, needles), 'what the attackers changed').toEqual(before)
}

it('gives every table in the exposed schemas row-level security', async () => {
  expect(await tablesWithoutRls(stack)).toEqual([])
})

describe('Realtime', () => {
  let listeners: Record<string, Listener>
  const speakers: SupabaseClient[] = []

  afterAll(async () => {
    for (const client of [...Object.values(listeners ?? {}).map((l) => l.client), ...speakers]) {
      await client.removeAllChannels()
    }
  })

  it('delivers the workspace to no outsider: changes, broadcasts, presence', async () => {
    const tables = await publishedTables(stack)
    const appTopicList = appTopics({
      workspace: seeded.workspaceId,
      document: seeded.documentId,
      conversation: seeded.conversationId,
    })
    const topics = appTopicList.map((t) => t.topic)
    const talked = appTopicList.filter((t) => t.talk)
    expect(tables.length).toBeGreaterThan(0)
    expect(talked.length).toBeGreaterThan(0)

    // Everyone joins every topic both ways; the attackers are refused the private ones.
    listeners = {}
    for (const isPrivate of [false, true]) {
      const mode = isPrivate ? 'private' : 'public'
      for (const { name, user } of [...attackers, { name: 'owner', user: seeded.owner }]) {
        listeners[`${name} ${mode}`] = await listen(stack, user, topics, tables, isPrivate)
      }
    }

    for (const { name } of attackers) {
      expect(listeners[`${name} public`]!.joined.sort(), `public topics ${name} joins`).toEqual(
        [...topics].sort(),
      )
    }

    // The owner talks where the app talks, as it does (broadcast and presence, privately or
    // not), asks in the shared conversation (its answer streams as broadcasts), and every row
    // of every published table changes.
    for (const isPrivate of [false, true]) {
      const here = talked.filter((t) => t.isPrivate === isPrivate).map((t) => t.topic)
      if (here.length) speakers.push(await speak(stack, seeded.owner, here, isPrivate, canary))
    }
    const reply = await ask(stack, seeded.owner, {
      conversation_id: seeded.conversationId,
      content: `And the ${probe} ${canary} ledger?`,
    })
    expect(reply.status).toBe(200)
    // Updates, not deletes: a DELETE reaches every subscriber of its table with the row's
    // primary key, RLS or not, on hosted Realtime as in localbase (realtime/README.md).
    const touched = await touchEveryRow(stack, tables)

    // Waits until the owner has seen it all, then a little longer for anything stray.
    const owned = (t: (typeof talked)[number]) =>
      listeners[`owner ${t.isPrivate ? 'private' : 'public'}`]!.frames.filter(
        (f) => f.topic === `realtime:${t.topic}` && f.text.includes(canary),
      )
    const changedTables = () =>
      new Set(
        listeners['owner public']!.frames.filter((f) => f.event === 'postgres_changes').map(
          (f) => /"table":"([^"]+)"/.exec(f.text)?.[1],
        ),
      )
    const heard = () =>
      talked.every((t) => {
        const events = owned(t).map((f) => f.event)
        return events.includes('broadcast') && events.some((e) => e.startsWith('presence'))
      })
    await until(() => heard() && touched.every((t) => changedTables().has(t)))
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(heard(), 'the owner hears broadcasts and presence where the app talks').toBe(true)
    expect([...changedTables()], 'published tables whose changes reached the owner').toEqual(
      expect.arrayContaining(touched),
    )

    const known = findings.problems.length
    for (const [name, listener] of Object.entries(listeners)) {
      for (const frame of listener.frames) {
        const what = `realtime ${name} ${frame.topic} ${frame.event}`
        if (name.startsWith('owner')) findings.owner('realtime', what, 200, frame.text)
        else findings.attacker('realtime', what, 200, frame.text, frame.topic)
      }
    }
    console.log(
      `Realtime: ${tables.length} published tables (${touched.join(', ')} changed), ` +
        `${topics.length} topics (${talked.map((t) => t.template).join(', ')} talked on), ` +
        `${findings.checked.get('realtime')} frames to attackers, ` +
        `${findings.ownerSaw.get('realtime')} to the owner with the canary`,
    )
    expect(findings.problems.slice(known)).toEqual([])
  })
})

describe('the API, swept', () => {
  beforeAll(async () => {
    // Settings last: the chats above look the models up.
    await seedSettings(stack, seeded, canary)
  })

  it('REST: every table and view, select *', async () => {
    const known = findings.problems.length
    const relations = await exposedRelations(stack)
    const select = (client: SupabaseClient, r: (typeof relations)[number]) =>
      client.schema(r.schema).from(r.name).select('*')
    await sweepAttackers(() =>
      each(
        relations.flatMap((r) => attackers.map((a) => ({ r, a }))),
        async ({ r, a }) => {
          const { data, error, status } = await select(a.client, r)
          findings.attacker('rest', `${a.name} select ${r.schema}.${r.name}`, status, {
            data,
            error,
          })
        },
      ),
    )
    await each(relations, async (r) => {
      const { data, error, status } = await select(owner, r)
      findings.owner('rest', `select ${r.schema}.${r.name}`, status, { data, error })
    })
    console.log(
      `REST: ${relations.length} relations, ${findings.checked.get('rest')} attacker selects, ` +
        `the owner saw the canary in ${findings.ownerSaw.get('rest')}`,
    )
    expect(findings.problems.slice(known)).toEqual([])
    expect(findings.checked.get('rest')).toBe(relations.length * attackers.length)
    expect(findings.ownerSaw.get('rest')).toBeGreaterThanOrEqual(5)
  })

  it('RPC: every function, with arguments from its signature', async () => {
    const known = findings.problems.length
    const functions = await exposedFunctions(stack)
    const calls = functions.flatMap((fn) =>
      argumentSets(fn, { seeded, probe }).map((args) => ({ fn, args })),
    )
    const rpc = (client: SupabaseClient, { fn, args }: (typeof calls)[number]) =>
      client.schema(fn.schema).rpc(fn.name, args)
    // Functions some call reached: not PostgREST's "no such function" for its arguments.
    const reached = new Set<string>()
    await sweepAttackers(() =>
      each(
        calls.flatMap((call) => attackers.map((a) => ({ call, a }))),
        async ({ call, a }) => {
          const { data, error, status } = await rpc(a.client, call)
          if (error?.code !== 'PGRST202') reached.add(`${call.fn.schema}.${call.fn.name}`)
          const given = JSON.stringify(call.args)
          findings.attacker(
            'rpc',
            `${a.name} ${call.fn.schema}.${call.fn.name}(${given})`,
            status,
            { data, error },
            given,
          )
        },
      ),
    )
    // The owner calls only what cannot change anything: stable and immutable functions.
    await each(
      calls.filter((c) => !c.fn.volatile),
      async (call) => {
        const { data, error, status } = await rpc(owner, call)
        const what = `${call.fn.schema}.${call.fn.name}(${JSON.stringify(call.args)})`
        findings.owner('rpc', what, status, { data, error })
      },
    )
    console.log(
      `RPC: ${functions.length} functions, ${findings.checked.get('rpc')} attacker calls, ` +
        `the owner saw the canary in ${findings.ownerSaw.get('rpc')}`,
    )
    expect(findings.problems.slice(known)).toEqual([])
    expect(
      functions.map((fn) => `${fn.schema}.${fn.name}`).filter((fn) => !reached.has(fn)),
      'functions no call reached',
    ).toEqual([])
    expect(findings.ownerSaw.get('rpc')).toBeGreaterThan(0)
  })

  it('Storage: every bucket, listed, and every object in it, read every way', async () => {
    const known = findings.problems.length
    const ids = await buckets(stack)
    const { rows: objects } = await stack.db.pg.query<{ bucket: string; name: string }>(
      'select bucket_id as bucket, name from storage.objects order by 1, 2',
    )
    const prefixes = ['', seeded.workspaceId, `${seeded.workspaceId}/${seeded.documentId}`]
    await sweepAttackers(() =>
      each(
        attackers.flatMap((a) =>
          storageReads(a.client, ids, prefixes, objects).map((read) => ({ a, read })),
        ),
        async ({ a, read }) => {
          const { status, body } = await read.run()
          findings.attacker('storage', `${a.name} ${read.what}`, status, body, read.what)
        },
      ),
    )
    await each(storageReads(owner, ids, prefixes, objects), async (read) => {
      const { status, body } = await read.run()
      findings.owner('storage', read.what, status, body)
    })
    console.log(
      `Storage: ${ids.length} buckets, ${objects.length} objects, ` +
        `${findings.checked.get('storage')} attacker reads, ` +
        `the owner saw the canary in ${findings.ownerSaw.get('storage')}`,
    )
    expect(ids.length).toBeGreaterThan(0)
    expect(objects.length).toBeGreaterThan(0)
    expect(findings.problems.slice(known)).toEqual([])
    expect(findings.ownerSaw.get('storage')).toBeGreaterThan(0)
  })

  it('Edge Functions: every one, asked about the workspace', async () => {
    const known = findings.problems.length
    const names = edgeFunctions()
    const body = JSON.stringify({
      workspace_id: seeded.workspaceId,
      document_id: seeded.documentId,
      document_ids: [seeded.documentId],
      conversation_id: seeded.conversationId,
      invitation_id: seeded.invitationId,
      query: probe,
      content: probe,
    })
    await sweepAttackers(() =>
      each(
        names.flatMap((name) => attackers.map((a) => ({ name, a }))),
        async ({ name, a }) => {
          const { status, text } = await callFunction(stack, name, a.user, body)
          findings.attacker('functions', `${a.name} POST ${name}`, status, text, body)
        },
        2,
      ),
    )
    for (const name of names) {
      const { status, text } = await callFunction(stack, name, seeded.owner, body)
      findings.owner('functions', `POST ${name}`, status, text)
    }
    console.log(
      `Edge Functions: ${names.join(', ')}; the owner saw the canary in ` +
        `${findings.ownerSaw.get('functions')}`,
    )
    expect(findings.problems.slice(known)).toEqual([])
    expect(findings.checked.get('functions')).toBe(names.length * attackers.length)
    expect(findings.ownerSaw.get('functions')).toBeGreaterThan(0)
  })
})
