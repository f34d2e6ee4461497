import { CircleCheckIcon } from 'lucide-react'
import { useUploads } from '../hooks/use-uploads'
import { Button } from '@/components/ui/button'
import { UploadQueueItem } from './upload-queue-item'

/** The files this tab is adding to the workspace, newest first; finished ones can be cleared. */
export function UploadQueue({ workspaceId }: { workspaceId: string }) {
  const { items, cancel, dismiss, retryUpload } = useUploads(workspaceId)
  if (items.length === 0) return null
  const finished = items.filter((i) => i.state !== 'waiting' && i.state !== 'running')
  const active = items.length - finished.length
  // Uploads that went well fold into one line after a moment; failures stay listed.
  const collapsed = items.filter((i) => i.collapsed)
  return (
    <section
      aria-label="Uploads"
      className="bg-card mx-4 mt-4 overflow-hidden rounded-lg border shadow-xs sm:mx-8"
    >
      <header className="flex items-center justify-between gap-2 border-b px-4 py-2">
        <h2 className="text-sm font-semibold">
          {active ? `Uploading ${active} of ${items.length}` : 'Uploads'}
        </h2>
        {finished.length ? (
          <Button variant="ghost" size="sm" onClick={() => dismiss(finished.map((i) => i.id))}>
            Clear finished
          </Button>
        ) : null}
      </header>
      <ul className="max-h-72 divide-y overflow-y-auto">
        {items
          .filter((item) => !item.collapsed)
          .toReversed()
          .map((item) => (
            <UploadQueueItem
              key={item.id}
              item={item}
              onCancel={() => cancel(item.id)}
              onDismiss={() => dismiss([item.id])}
              onRetry={() => retryUpload(item.id)}
            />
          ))}
        {collapsed.length ? (
          <li className="text-muted-foreground flex items-center gap-1.5 px-4 py-2.5 text-xs">
            <CircleCheckIcon className="size-3.5 shrink-0 text-emerald-600" aria-hidden />
            {collapsed.length} uploaded
          </li>
        ) : null}
      </ul>
    </section>
  )
}
