import { isRecognising } from '@/lib/ingest-stages'
import { cn } from '@/lib/utils'
import type { LibraryRow } from './library-view'

/**
 * The columns of a header or document row. Phones show the title (with a line of details
 * under it) and the status; wider screens add type, size and date; the widest add pages,
 * chunks and the uploader. Editors get a last column for the row's actions.
 */
export function rowGrid(withActions: boolean) {
  return cn(
    'grid items-center gap-x-3',
    withActions
      ? 'grid-cols-[minmax(0,1fr)_7.5rem_2rem] md:grid-cols-[minmax(0,1fr)_4.5rem_4.5rem_6.5rem_11rem_2rem] xl:grid-cols-[minmax(0,1fr)_4.5rem_4.5rem_3rem_3.5rem_7rem_6.5rem_11rem_2rem]'
      : 'grid-cols-[minmax(0,1fr)_7.5rem] md:grid-cols-[minmax(0,1fr)_4.5rem_4.5rem_6.5rem_11rem] xl:grid-cols-[minmax(0,1fr)_4.5rem_4.5rem_3rem_3.5rem_7rem_6.5rem_11rem]',
  )
}

/** Cells only the wider layouts show. */
export const wide = 'hidden md:block'
export const widest = 'hidden xl:block'

/**
 * A row's height, known from its content so the virtualizer never has to measure the DOM
 * (measuring forces a layout per row while scrolling): taller when a failure reason or a new
 * version's progress sits under the status, or OCR's page takes two lines of it.
 */
export function rowHeight(row: LibraryRow): number {
  const { replacement } = row
  if (replacement && replacement.status !== 'ready') {
    return replacement.status === 'processing' && isRecognising(replacement.document) ? 120 : 88
  }
  if (row.status === 'failed' && row.document.error) return 68
  if (row.status === 'processing' && isRecognising(row.document)) return 68
  return 57
}
