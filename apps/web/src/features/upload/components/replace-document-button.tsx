import { FileUpIcon } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { useUploads } from '../hooks/use-uploads'
import { itemStageLabel } from '../utils/item-stage'
import type { UploadItem } from '../utils/upload-queue'

type ReplaceDocumentButtonProps = {
  workspaceId: string
  documentId: string
  title: string
}

const active = (item: UploadItem) => item.state === 'waiting' || item.state === 'running'

/**
 * Picks a file and ingests it as a new version of the document. The current version stays
 * (and stays searchable) until the new one is ready; then the database swaps them at once.
 */
export function ReplaceDocumentButton({
  workspaceId,
  documentId,
  title,
}: ReplaceDocumentButtonProps) {
  const { items, add } = useUploads(workspaceId)
  const input = useRef<HTMLInputElement>(null)
  const latest = items.findLast((i) => i.kind === 'replace' && i.replacesId === documentId)
  const busy = !!latest && active(latest)
  useOutcome(latest, title)
  return (
    <>
      <input
        ref={input}
        type="file"
        className="sr-only"
        tabIndex={-1}
        aria-label={`New version of ${title}`}
        onChange={(event) => {
          const file = event.target.files?.[0]
          if (file) add([file], documentId)
          event.target.value = ''
        }}
      />
      <Button
        variant="outline"
        disabled={busy}
        title={busy ? `New version: ${itemStageLabel(latest)}` : undefined}
        onClick={() => input.current?.click()}
      >
        <FileUpIcon aria-hidden />
        {busy ? `Replacing… ${Math.round(latest.progress * 100)}%` : 'Replace'}
      </Button>
    </>
  )
}

/** Says once how a replacement ended (not again for one that ended before this mounted). */
function useOutcome(item: UploadItem | undefined, title: string) {
  const told = useRef(item && !active(item) ? item.id : null)
  useEffect(() => {
    if (!item || told.current === item.id || active(item)) return
    told.current = item.id
    if (item.state === 'ready') toast.success(`The new version of “${title}” is ready`)
    else if (item.state === 'duplicate')
      toast.info(`That file is already in the library as “${item.duplicate?.title}”`)
    else if (item.state === 'failed' || item.state === 'refused')
      toast.error(`The new version was not added: ${item.error}`)
  }, [item, title])
}
