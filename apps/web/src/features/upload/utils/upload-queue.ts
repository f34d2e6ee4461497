import { nameRefusal } from '@sourcebook/core/ingest/file-types'
import { documentStoragePath } from '@sourcebook/core/ingest/storage-path'
import type { IngestResult, IngestStage, ResumedFrom } from '@sourcebook/core/ingest/types'
import { errorMessage } from '@/lib/errors'
import { IngestWorker } from '../api/ingest-worker'
import type { FromWorker, ToWorker } from '../worker/protocol'
import { keepUploadUrl, keptUploadUrl } from './upload-urls'

/** Per file, as in the core pipeline's default (100 MB): refused before it is even read. */
export const MAX_UPLOAD_BYTES = 100 * 2 ** 20
/** Files in flight at once: one uploads while another is parsed. */
const MAX_RUNNING = 2
/** How long a finished upload stays in full before it folds into the "N uploaded" line. */
const COLLAPSE_AFTER_MS = 4000

export type UploadState =
  'waiting' | 'running' | 'ready' | 'duplicate' | 'refused' | 'failed' | 'cancelled'

export type UploadItem = {
  id: string
  workspaceId: string
  name: string
  size: number | null
  kind: 'upload' | 'replace' | 'retry'
  state: UploadState
  stage: IngestStage | null
  progress: number
  /** While a scanned page is being recognised: which one, of how many. */
  ocr?: { page: number; pages: number } | undefined
  /** The document being written (once it exists), replaced, or retried. */
  documentId?: string
  replacesId?: string
  error?: string
  warning?: string
  duplicate?: { id: string; title: string }
  /**
   * This takes up an earlier document instead of making a new one, and how that one had ended:
   * chosen so in the library, or found by the importer from the file's bytes.
   */
  resumed?: ResumedFrom
  /** The importer resumed a document whose original is stored in full: a retry reuses it. */
  originalStored?: boolean
  /** Finished a while ago: counted in the summary line instead of listed. */
  collapsed?: boolean
}

type Listener = () => void

/**
 * The uploads of this tab, across pages: a small store (client state, not server data) that
 * hands each file to the ingest worker, at most MAX_RUNNING at a time, and keeps its stage.
 */
class UploadQueue {
  private items: UploadItem[] = []
  private readonly files = new Map<string, File>()
  private readonly listeners = new Set<Listener>()
  private readonly worker = new IngestWorker(
    (message) => this.receive(message),
    (reason) => this.crashAll(reason),
  )

  subscribe = (listener: Listener) => {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  snapshot = () => this.items

  add(workspaceId: string, files: File[], replacesId?: string) {
    for (const file of files) {
      const id = crypto.randomUUID()
      // Too large, empty or of a type Sourcebook cannot read: refused now, with the reason,
      // rather than after waiting its turn.
      const refused = nameRefusal(file.name, file.size, MAX_UPLOAD_BYTES)
      this.items = [
        ...this.items,
        {
          id,
          workspaceId,
          name: file.name,
          size: file.size,
          kind: replacesId ? 'replace' : 'upload',
          state: refused ? 'refused' : 'waiting',
          stage: null,
          progress: 0,
          ...(replacesId ? { replacesId } : {}),
          ...(refused ? { error: refused } : {}),
        },
      ]
      if (!refused) this.files.set(id, file)
    }
    this.changed()
  }

  retry(workspaceId: string, document: { id: string; title: string }, resumed: ResumedFrom) {
    const busy = this.items.some(
      (item) => item.documentId === document.id && ['waiting', 'running'].includes(item.state),
    )
    if (busy) return
    this.items = [
      ...this.items,
      {
        id: crypto.randomUUID(),
        workspaceId,
        name: document.title,
        size: null,
        kind: 'retry',
        state: 'waiting',
        stage: null,
        progress: 0,
        documentId: document.id,
        resumed,
      },
    ]
    this.changed()
  }

  /**
   * A document whose upload was cut before this page was loaded (a reload, a closed tab), with
   * its file chosen again: the upload continues from the server's offset, then it is indexed.
   */
  resume(workspaceId: string, documentId: string, file: File, resumed: ResumedFrom) {
    const busy = this.items.some(
      (item) => item.documentId === documentId && ['waiting', 'running'].includes(item.state),
    )
    if (busy) return
    const id = crypto.randomUUID()
    this.files.set(id, file)
    this.items = [
      ...this.items,
      {
        id,
        workspaceId,
        name: file.name,
        size: file.size,
        kind: 'upload',
        state: 'waiting',
        stage: null,
        progress: 0,
        documentId,
        resumed,
      },
    ]
    this.changed()
  }

  /**
   * A failed upload again, as the same document when its row was written: its upload resumes
   * where the bytes stopped, then it is indexed (so no second row is left behind).
   */
  retryUpload(id: string) {
    const item = this.items.find((i) => i.id === id)
    if (item?.state !== 'failed') return
    const file = this.files.get(id)
    if (!file && !item.documentId) return
    this.update(id, {
      state: 'waiting',
      stage: null,
      progress: 0,
      error: undefined,
      // Without the file (a retry of a stored document), the stored original is used again;
      // so too for an earlier document this file resumed, whose original is stored in full
      // (at its own name, which this file's may not be).
      ...(file && !item.originalStored ? {} : { kind: 'retry' as const }),
    })
  }

  cancel(id: string) {
    const item = this.items.find((i) => i.id === id)
    if (item?.state === 'running') void this.worker.send({ type: 'cancel', jobId: id })
    else if (item?.state === 'waiting') this.update(id, { state: 'cancelled' })
  }

  dismiss(ids: string[]) {
    for (const id of ids) this.files.delete(id)
    this.items = this.items.filter((item) => !ids.includes(item.id))
    this.changed()
  }

  private pump() {
    let running = this.items.filter((item) => item.state === 'running').length
    for (const item of this.items) {
      if (running >= MAX_RUNNING) return
      if (item.state !== 'waiting') continue
      running += 1
      this.update(item.id, { state: 'running', stage: 'uploading' })
      this.worker
        .send(this.message(item))
        .catch((error: unknown) =>
          this.update(item.id, { state: 'failed', error: errorMessage(error) }),
        )
    }
  }

  private message(item: UploadItem): ToWorker {
    if (item.kind === 'retry')
      return { type: 'retry', jobId: item.id, documentId: item.documentId! }
    // Kept until the upload ends well, so that a failed one can be retried.
    const file = this.files.get(item.id)!
    if (item.documentId) {
      const { id: jobId, workspaceId, documentId } = item
      const uploadUrl = keptUploadUrl(documentStoragePath(workspaceId, documentId, file.name))
      return { type: 'resume', jobId, file, workspaceId, documentId, uploadUrl }
    }
    return {
      type: 'ingest',
      jobId: item.id,
      file,
      workspaceId: item.workspaceId,
      maxBytes: MAX_UPLOAD_BYTES,
      ...(item.replacesId ? { replacesId: item.replacesId } : {}),
    }
  }

  private receive(message: FromWorker) {
    if (message.type === 'upload-url') {
      keepUploadUrl(message.path, message.url)
    } else if (message.type === 'progress') {
      const { stage, progress, documentId, ocr } = message
      this.update(message.jobId, {
        stage,
        progress,
        ocr,
        ...(documentId ? { documentId } : {}),
      })
    } else if (message.type === 'done') {
      this.update(message.jobId, outcome(message.result))
      const ended = this.items.find((i) => i.id === message.jobId)
      if (ended?.state !== 'failed') this.files.delete(message.jobId)
      if (message.result.status === 'ready') this.collapseLater(message.jobId)
    } else {
      this.update(message.jobId, { state: 'failed', error: errorMessage(message.message) })
    }
  }

  private crashAll(reason: string) {
    for (const item of this.items) {
      if (item.state === 'running')
        this.update(item.id, { state: 'failed', error: errorMessage(reason) })
    }
  }

  private collapseLater(id: string) {
    setTimeout(() => this.update(id, { collapsed: true }), COLLAPSE_AFTER_MS)
  }

  private update(id: string, patch: Partial<UploadItem>) {
    this.items = this.items.map((item) => (item.id === id ? { ...item, ...patch } : item))
    this.changed()
  }

  private changed() {
    for (const listener of this.listeners) listener()
    const busy = this.items.some((i) => i.state === 'waiting' || i.state === 'running')
    if (busy) window.addEventListener('beforeunload', warnBeforeLeaving)
    else window.removeEventListener('beforeunload', warnBeforeLeaving)
    queueMicrotask(() => this.pump())
  }
}

/** Closing the tab stops the uploads in flight (they show as interrupted): ask first. */
function warnBeforeLeaving(event: BeforeUnloadEvent) {
  event.preventDefault()
}

function outcome(result: IngestResult): Partial<UploadItem> {
  switch (result.status) {
    case 'ready':
      return {
        state: 'ready',
        stage: 'ready',
        progress: 1,
        documentId: result.documentId,
        ...(result.warning ? { warning: result.warning } : {}),
        ...(result.resumed ? { resumed: result.resumed, originalStored: true } : {}),
      }
    case 'duplicate':
      return { state: 'duplicate', duplicate: { id: result.documentId, title: result.title } }
    case 'refused':
      return result.error === 'cancelled'
        ? { state: 'cancelled' }
        : { state: 'refused', error: result.error }
    case 'failed':
      return result.error === 'cancelled'
        ? { state: 'cancelled', documentId: result.documentId }
        : {
            state: 'failed',
            error: errorMessage(result.error),
            documentId: result.documentId,
            ...(result.resumed ? { resumed: result.resumed, originalStored: true } : {}),
          }
  }
}

export const uploadQueue = new UploadQueue()
