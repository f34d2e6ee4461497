import { EllipsisIcon, PencilIcon, TagsIcon, Trash2Icon } from 'lucide-react'
import type * as React from 'react'
import { useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import type { DocumentDetail } from '../api/get-document'
import { DeleteDocumentDialog } from './delete-document-dialog'
import { EditDetailsDialog } from './edit-details-dialog'
import { RenameDocumentDialog } from './rename-document-dialog'

type Kind = 'rename' | 'details' | 'delete'

type DocumentEditActionsProps = {
  doc: DocumentDetail
  /** Actions composed by the route (Replace), always shown. */
  extra?: React.ReactNode
  onDeleted: () => void
}

/**
 * Rename, Details (period and names) and Delete: buttons from 640 px, behind a "More actions" menu below it so the header's
 * actions stay on one row on a phone. Only one of the two is displayed at any width, so each
 * action has one accessible name on the page.
 */
export function DocumentEditActions({ doc, extra, onDeleted }: DocumentEditActionsProps) {
  const [dialog, setDialog] = useState<Kind | null>(null)
  const more = useRef<HTMLButtonElement>(null)
  const opener = useRef<HTMLElement | null>(null)
  const show = (kind: Kind, from: HTMLElement | null) => {
    opener.current = from
    setDialog(kind)
  }
  const dialogProps = {
    id: doc.id,
    title: doc.title,
    onOpenChange: (open: boolean) => (open ? null : setDialog(null)),
    onCloseAutoFocus: (event: Event) => {
      event.preventDefault()
      opener.current?.focus()
    },
  }
  return (
    <>
      {extra}
      <Button
        variant="outline"
        className="max-sm:hidden"
        onClick={(event) => show('rename', event.currentTarget)}
      >
        <PencilIcon aria-hidden /> Rename
      </Button>
      <Button
        variant="outline"
        className="max-sm:hidden"
        onClick={(event) => show('details', event.currentTarget)}
      >
        <TagsIcon aria-hidden /> Details
      </Button>
      <Button
        variant="outline"
        className="text-destructive max-sm:hidden"
        onClick={(event) => show('delete', event.currentTarget)}
      >
        <Trash2Icon aria-hidden /> Delete
      </Button>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            ref={more}
            variant="outline"
            size="icon"
            className="sm:hidden"
            aria-label="More actions"
          >
            <EllipsisIcon aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={() => show('rename', more.current)}>
            <PencilIcon aria-hidden /> Rename
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => show('details', more.current)}>
            <TagsIcon aria-hidden /> Details
          </DropdownMenuItem>
          <DropdownMenuItem variant="destructive" onSelect={() => show('delete', more.current)}>
            <Trash2Icon aria-hidden /> Delete
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <RenameDocumentDialog {...dialogProps} fileName={doc.file_name} open={dialog === 'rename'} />
      <EditDetailsDialog
        id={doc.id}
        periods={doc.periods}
        names={doc.names}
        open={dialog === 'details'}
        onOpenChange={dialogProps.onOpenChange}
        onCloseAutoFocus={dialogProps.onCloseAutoFocus}
      />
      <DeleteDocumentDialog {...dialogProps} open={dialog === 'delete'} onDeleted={onDeleted} />
    </>
  )
}
