import { useRef, useState } from 'react'
import type { ResumedFrom } from '@sourcebook/core/ingest/types'
import { toast } from 'sonner'
import { useUploads } from './use-uploads'

/** What a retry needs to know of a document: a cut upload is resumed with its file. */
type Retried = {
  id: string
  title: string
  file_name: string
  status: string
  stage: string
  size_bytes: number | null
}

/**
 * Retry for a document in the library. A document whose upload was cut before this page was
 * loaded (stage still 'uploading': a reload or a closed tab stopped it) has no complete
 * original to index: the browser cannot read the file again by itself, so the person is asked
 * to choose it, and its upload continues where the server's bytes stop. Any other retry runs
 * the pipeline again on the stored original.
 */
export function useRetryDocument(workspaceId: string) {
  const uploads = useUploads(workspaceId)
  const input = useRef<HTMLInputElement>(null)
  const [target, setTarget] = useState<Retried | null>(null)
  const retry = (document: Retried) => {
    if (document.stage !== 'uploading') return uploads.retry(document, resumedFrom(document))
    setTarget(document)
    toast.info(`Choose “${document.file_name}” again: its upload continues where it stopped.`)
    input.current?.click()
  }
  const element = (
    <input
      ref={input}
      type="file"
      hidden
      aria-label={target ? `Choose ${target.file_name} to resume its upload` : undefined}
      onChange={(event) => {
        const file = event.target.files?.[0]
        event.target.value = ''
        if (!file || !target) return
        // The same file: its name and size must match what the upload started with.
        if (file.name !== target.file_name || (target.size_bytes ?? file.size) !== file.size) {
          toast.error(`That is not “${target.file_name}”: choose that file to resume its upload.`)
          return
        }
        uploads.resume(target.id, file, resumedFrom(target))
      }}
    />
  )
  return { retry, input: element }
}

/** Retry is offered for failed documents and for interrupted ones (still 'processing'). */
function resumedFrom(document: Retried): ResumedFrom {
  return document.status === 'failed' ? 'failed' : 'interrupted'
}
