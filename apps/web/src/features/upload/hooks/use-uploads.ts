import { useMemo, useSyncExternalStore } from 'react'
import type { ResumedFrom } from '@sourcebook/core/ingest/types'
import { uploadQueue } from '../utils/upload-queue'

/** This tab's uploads into one workspace, and what can be done with them. */
export function useUploads(workspaceId: string) {
  const all = useSyncExternalStore(uploadQueue.subscribe, uploadQueue.snapshot)
  const items = useMemo(() => all.filter((i) => i.workspaceId === workspaceId), [all, workspaceId])
  return useMemo(
    () => ({
      items,
      add: (files: File[], replacesId?: string) => uploadQueue.add(workspaceId, files, replacesId),
      retry: (document: { id: string; title: string }, from: ResumedFrom) =>
        uploadQueue.retry(workspaceId, document, from),
      retryUpload: (id: string) => uploadQueue.retryUpload(id),
      resume: (documentId: string, file: File, from: ResumedFrom) =>
        uploadQueue.resume(workspaceId, documentId, file, from),
      cancel: (id: string) => uploadQueue.cancel(id),
      dismiss: (ids: string[]) => uploadQueue.dismiss(ids),
    }),
    [items, workspaceId],
  )
}
