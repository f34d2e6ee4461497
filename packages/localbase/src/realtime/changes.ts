import type { ServiceContext } from '../context.ts'
import { withJobKey } from '../db/work-queue.ts'
import { encodeFrame } from './frames.ts'
import type { Channel, Hub } from './hub.ts'
import {
  checkFilters,
  type FilterCheck,
  loadTables,
  type QueuedChange,
  type RowProbe,
  type Viewer,
  selectableColumns,
  takeChanges,
  visibleRows,
} from './queries.ts'
import { type Column, parseComposite, type Table, toRecord } from './record.ts'

const BATCH = 500

type Change = QueuedChange & { table: Table; texts: (string | null)[]; oldTexts: (string | null)[] }
type Candidate = {
  change: Change
  channel: Channel
  id: number
  n: number
  /** The columns the subscriber's role may SELECT, set once authorised. */
  columns?: Set<string>
}

/**
 * postgres_changes (docs §4.4-4.5): the triggers of 40-realtime-changes.sql queue each row
 * change and NOTIFY; this drains the queue in batches, matches bindings, applies filters and
 * each subscriber's SELECT privilege and RLS (batched per distinct role and claims), and
 * pushes the wal2json-shaped payload.
 */
export class ChangeFeed {
  private readonly ctx: ServiceContext
  private readonly hub: Hub
  private readonly tables = new Map<number, Table>()
  private running: Promise<void> | null = null
  private again = false
  private unlisten: (() => Promise<void>) | null = null

  constructor(ctx: ServiceContext, hub: Hub) {
    this.ctx = ctx
    this.hub = hub
  }

  async start(): Promise<void> {
    await this.ctx.db.asService((tx) => tx.query('select realtime.sync_change_triggers()'))
    this.unlisten = await this.ctx.db.pg.listen('localbase_realtime_changes', () => this.wake())
    this.wake()
  }

  async close(): Promise<void> {
    await this.unlisten?.()
    await this.running
  }

  /** Drains what is queued now (and anything woken meanwhile); resolves when done. */
  async catchUp(): Promise<void> {
    this.wake()
    await this.running
  }

  private wake(): void {
    if (this.running) {
      this.again = true
      return
    }
    this.running = withJobKey('realtime changes', async () => {
      do {
        this.again = false
        try {
          while (await this.drain());
        } catch (error) {
          if (!this.ctx.db.pg.closed) console.error('[localbase] realtime changes:', error)
        }
      } while (this.again && !this.ctx.db.pg.closed)
      this.running = null
    })
  }

  /** Handles one batch; true when the queue may hold more. */
  private async drain(): Promise<boolean> {
    if (this.ctx.db.pg.closed) return false
    const queued = await takeChanges(this.ctx.db, BATCH)
    if (!queued.length || !this.hub.listening.size) return queued.length === BATCH
    const changes = await this.withTables(queued)
    const candidates = this.match(changes)
    if (candidates.length) this.deliver(await this.authorize(await this.filter(candidates)))
    return queued.length === BATCH
  }

  private async withTables(queued: QueuedChange[]): Promise<Change[]> {
    const parse = (q: QueuedChange) => ({
      texts: q.record === null ? [] : parseComposite(q.record),
      oldTexts: q.old_record === null ? [] : parseComposite(q.old_record),
    })
    const stale = (q: QueuedChange) => {
      const table = this.tables.get(q.relid)
      const { texts, oldTexts } = parse(q)
      return !table || Math.max(texts.length, oldTexts.length) !== table.columns.length
    }
    const missing = [...new Set(queued.filter(stale).map((q) => q.relid))]
    if (missing.length)
      for (const table of await loadTables(this.ctx.db, missing))
        this.tables.set(table.relid, table)
    return queued.flatMap((q) => {
      const table = this.tables.get(q.relid)
      return table ? [{ ...q, ...parse(q), table }] : []
    })
  }

  private match(changes: Change[]): Candidate[] {
    const candidates: Candidate[] = []
    for (const change of changes) {
      for (const channel of this.hub.listening) {
        for (const { id, subscription: s } of channel.bindings) {
          if (s.event !== '*' && s.event !== change.type) continue
          if (s.schema !== '*' && s.schema !== change.table.schema) continue
          if (s.table !== '*' && s.table !== change.table.table) continue
          candidates.push({ change, channel, id, n: candidates.length })
        }
      }
    }
    return candidates
  }

  /** Drops candidates whose binding filters reject the row (fail closed on unknown columns). */
  private async filter(candidates: Candidate[]): Promise<Candidate[]> {
    const checks: FilterCheck[] = []
    const owners: number[] = []
    const rejected = new Set<number>()
    for (const c of candidates) {
      const binding = c.channel.bindings.find((b) => b.id === c.id)!
      const { columns } = c.change.table
      const texts = c.change.type === 'DELETE' ? this.oldTexts(c.change) : c.change.texts
      for (const f of binding.subscription.filters) {
        const at = columns.findIndex((col) => col.name === f.column)
        if (at < 0 || texts[at] === undefined) {
          rejected.add(c.n)
          continue
        }
        checks.push({ ...f, operand: f.value, value: texts[at], sqlType: columns[at]!.sqlType })
        owners.push(c.n)
      }
    }
    const results = await checkFilters(this.ctx.db, checks)
    results.forEach((ok, i) => ok || rejected.add(owners[i]!))
    return candidates.filter((c) => !rejected.has(c.n))
  }

  /** DELETE carries only the primary key unless REPLICA IDENTITY FULL (undefined = absent). */
  private oldTexts(change: Change): (string | null | undefined)[] {
    if (change.table.replicaFull) return change.oldTexts
    return change.table.columns.map((col, i) => (col.pk ? change.oldTexts[i] : undefined))
  }

  /** Keeps candidates whose role may SELECT the table and, for INSERT/UPDATE, see the row. */
  private async authorize(candidates: Candidate[]): Promise<Candidate[]> {
    if (!candidates.length) return []
    const roles = [...new Set(candidates.map((c) => c.channel.role))]
    const relids = [...new Set(candidates.map((c) => c.change.relid))]
    const selectable = await selectableColumns(this.ctx.db, roles, relids)
    // As hosted: a role that cannot SELECT the primary key gets nothing from the table.
    const permitted = candidates.flatMap((c) => {
      const columns = selectable.get(`${c.change.relid} ${c.channel.role}`)
      const pk = c.change.table.columns.filter((col) => col.pk)
      return columns && pk.every((col) => columns.has(col.name)) ? [{ ...c, columns }] : []
    })

    // Per table: the changed rows to look up and the distinct role+claims to look them up as.
    const perTable = new Map<Table, { rows: Map<number, RowProbe>; viewers: Map<string, Viewer> }>()
    for (const { channel, change } of permitted) {
      if (change.type === 'DELETE' || !change.table.rls) continue
      const pk = change.table.columns.flatMap((col, i) => (col.pk ? [change.texts[i] ?? null] : []))
      if (!pk.length) continue
      let probe = perTable.get(change.table)
      if (!probe) perTable.set(change.table, (probe = { rows: new Map(), viewers: new Map() }))
      probe.rows.set(change.id, { n: change.id, pk })
      probe.viewers.set(viewerKey(channel), { role: channel.role, claims: channel.claims })
    }
    const probes = [...perTable].map(([table, probe]) => {
      // Sorted by role: realtime.visible_rows only switches role when it changes.
      const viewers = [...probe.viewers].sort(([, a], [, b]) => a.role.localeCompare(b.role))
      return {
        table,
        rows: [...probe.rows.values()],
        viewers: viewers.map(([, viewer]) => viewer),
        keys: viewers.map(([key]) => key),
      }
    })
    const visible = probes.length ? await visibleRows(this.ctx.db, probes) : new Set<string>()
    return permitted.filter(({ channel, change }) => {
      if (change.type === 'DELETE' || !change.table.rls) return true
      const viewer = probes.find((p) => p.table === change.table)?.keys.indexOf(viewerKey(channel))
      return visible.has(`${change.relid} ${viewer} ${change.id}`)
    })
  }

  /**
   * One frame per channel, change and column set: bindings that see the same columns share
   * a frame (listed in `ids`); payloads are built once per change and column set.
   */
  private deliver(candidates: Candidate[]): void {
    const frames = new Map<
      string,
      { channel: Channel; change: Change; columns: Column[]; ids: number[] }
    >()
    const order = new Map<Channel, number>()
    for (const c of candidates) {
      const { select } = c.channel.bindings.find((b) => b.id === c.id)!.subscription
      const columns = c.change.table.columns.filter(
        (col) => c.columns!.has(col.name) && (!select || col.pk || select.includes(col.name)),
      )
      if (!order.has(c.channel)) order.set(c.channel, order.size)
      const key = `${order.get(c.channel)} ${c.change.id} ${columns.map((col) => col.name).join(',')}`
      const frame = frames.get(key) ?? { channel: c.channel, change: c.change, columns, ids: [] }
      frames.set(key, frame)
      if (!frame.ids.includes(c.id)) frame.ids.push(c.id)
    }
    const payloads = new Map<string, Record<string, unknown>>()
    const sorted = [...frames.values()].sort((a, b) => a.change.id - b.change.id)
    for (const { channel, change, columns, ids } of sorted) {
      const key = `${change.id} ${columns.map((col) => col.name).join(',')}`
      if (!payloads.has(key)) payloads.set(key, payload(change, new Set(columns)))
      const frame = { ids, data: payloads.get(key)! }
      channel.peer.send(
        encodeFrame(
          {
            joinRef: null,
            ref: null,
            topic: channel.topic,
            event: 'postgres_changes',
            payload: frame,
          },
          channel.peer.vsn,
        ),
      )
    }
  }
}

function viewerKey(channel: Channel): string {
  return JSON.stringify([channel.role, channel.claims])
}

function payload(change: Change, visible: Set<Column>): Record<string, unknown> {
  const { table, type } = change
  const errors = table.columns.some((c) => c.pk) ? null : ['Error 400: Bad Request, no primary key']
  const seen = (c: Column) => visible.has(c)
  // A DELETE on an RLS table cannot be secured, so it carries the primary key only.
  const old = (c: Column) => seen(c) && (c.pk || (table.replicaFull && !table.rls))
  return {
    schema: table.schema,
    table: table.table,
    commit_timestamp: change.ts,
    type,
    columns: table.columns.filter(seen).map((c) => ({ name: c.name, type: c.type })),
    ...(type !== 'DELETE' ? { record: toRecord(table.columns, change.texts, seen) } : {}),
    ...(type === 'UPDATE'
      ? { old_record: table.replicaFull ? toRecord(table.columns, change.oldTexts, seen) : {} }
      : {}),
    ...(type === 'DELETE' ? { old_record: toRecord(table.columns, change.oldTexts, old) } : {}),
    errors,
  }
}
