import { CircleAlertIcon, CircleCheckIcon, CopyIcon, XIcon } from 'lucide-react'
import type * as React from 'react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { Progress } from '@/components/ui/progress'
import { documentHref } from '@/lib/links'
import { itemStageLabel } from '../utils/item-stage'
import type { UploadItem } from '../utils/upload-queue'

type UploadQueueItemProps = {
  item: UploadItem
  onCancel: () => void
  onDismiss: () => void
  onRetry: () => void
}

const verb = { upload: '', replace: 'New version: ', retry: 'Retry: ' }

/** What became of the earlier attempt this item took up, so nobody looks for a second copy. */
const resumedReady = {
  failed: 'Retried the earlier failed upload: ready',
  interrupted: 'Resumed the interrupted upload: ready',
}
const resumedFailed = {
  failed: 'The earlier failed upload failed again: ',
  interrupted: 'The interrupted upload was resumed but failed: ',
}

/** One file in the queue: its stage and progress, or how it ended and why. */
export function UploadQueueItem({ item, onCancel, onDismiss, onRetry }: UploadQueueItemProps) {
  const active = item.state === 'waiting' || item.state === 'running'
  return (
    <li className="flex items-center gap-3 px-4 py-2.5" aria-label={item.name}>
      <div className="grid min-w-0 flex-1 gap-1">
        <span className="truncate text-sm font-medium" title={item.name}>
          {item.kind === 'retry' && item.resumed === 'interrupted' ? 'Resume: ' : verb[item.kind]}
          {item.name}
        </span>
        <Outcome item={item} />
      </div>
      {item.state === 'failed' ? (
        <Button variant="outline" size="sm" onClick={onRetry} aria-label={`Retry ${item.name}`}>
          Retry
        </Button>
      ) : null}
      {active ? (
        <Button variant="ghost" size="sm" onClick={onCancel} aria-label={`Cancel ${item.name}`}>
          Cancel
        </Button>
      ) : (
        <Button
          variant="ghost"
          size="icon-sm"
          onClick={onDismiss}
          aria-label={`Dismiss ${item.name}`}
        >
          <XIcon />
        </Button>
      )}
    </li>
  )
}

function Outcome({ item }: { item: UploadItem }) {
  const note = 'text-muted-foreground text-xs'
  switch (item.state) {
    case 'waiting':
      return <span className={note}>Waiting…</span>
    case 'running': {
      const stage = itemStageLabel(item)
      return (
        <div className="grid gap-1">
          <span className={note}>
            {stage}… {Math.round(item.progress * 100)}%
          </span>
          <Progress value={item.progress} aria-label={`${item.name}: ${stage}`} />
        </div>
      )
    }
    case 'ready':
      return (
        <span className="flex items-center gap-1.5 text-xs">
          <CircleCheckIcon className="size-3.5 shrink-0 text-emerald-600" aria-hidden />
          <span>
            {item.resumed ? resumedReady[item.resumed] : 'Ready'}
            {item.warning ? ` (${item.warning})` : ''}
            {item.documentId ? (
              <>
                {' — '}
                <DocumentLink workspaceId={item.workspaceId} documentId={item.documentId}>
                  open it
                </DocumentLink>
              </>
            ) : null}
          </span>
        </span>
      )
    case 'duplicate':
      return (
        <span className="flex items-start gap-1.5 text-xs">
          <CopyIcon className="text-muted-foreground mt-px size-3.5 shrink-0" aria-hidden />
          <span>
            Already in the library as “{item.duplicate!.title}” —{' '}
            <DocumentLink workspaceId={item.workspaceId} documentId={item.duplicate!.id}>
              open it
            </DocumentLink>
          </span>
        </span>
      )
    case 'cancelled':
      return <span className={note}>Cancelled</span>
    default:
      return (
        <span className="text-destructive flex items-start gap-1.5 text-xs" role="alert">
          <CircleAlertIcon className="mt-px size-3.5 shrink-0" aria-hidden />
          <span>
            {item.state === 'refused'
              ? 'Not added: '
              : item.resumed
                ? resumedFailed[item.resumed]
                : 'Failed: '}
            {item.error}
          </span>
        </span>
      )
  }
}

function DocumentLink({
  workspaceId,
  documentId,
  children,
}: {
  workspaceId: string
  documentId: string
  children: React.ReactNode
}) {
  return (
    <Link
      to={documentHref(workspaceId, documentId)}
      className="font-medium underline underline-offset-4"
    >
      {children}
    </Link>
  )
}
