import {
  ChevronLeftIcon,
  ChevronRightIcon,
  ListTreeIcon,
  MoveHorizontalIcon,
  SearchIcon,
  ZoomInIcon,
  ZoomOutIcon,
} from 'lucide-react'
import type { RefObject } from 'react'
import { Button } from '@/components/ui/button'
import { MAX_ZOOM, MIN_ZOOM, zoomLabel } from '../../utils/pdf-zoom'
import { PageInput } from './page-input'

type PdfToolbarProps = {
  page: number
  pageCount: number
  onGoTo: (page: number) => void
  scale: number
  fitting: boolean
  onZoom: (direction: 1 | -1) => void
  onFitWidth: () => void
  findOpen: boolean
  findButtonRef: RefObject<HTMLButtonElement | null>
  onToggleFind: () => void
  /** Only when the PDF has an outline. */
  outline: { open: boolean; onToggle: () => void } | null
}

/** Outline, page n of N with go-to, previous/next page, zoom, fit width, find. */
export function PdfToolbar(props: PdfToolbarProps) {
  const { page, pageCount, onGoTo, scale, fitting, onZoom, onFitWidth, outline } = props
  const { findOpen, findButtonRef, onToggleFind } = props
  return (
    <div role="toolbar" aria-label="PDF" className="flex flex-wrap items-center gap-1">
      {outline ? (
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Outline"
          aria-expanded={outline.open}
          onClick={outline.onToggle}
        >
          <ListTreeIcon />
        </Button>
      ) : null}
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label="Previous page"
        // On phones the toolbar keeps to one row: the page box and scrolling do this there.
        className="hidden sm:inline-flex"
        disabled={page <= 1}
        onClick={() => onGoTo(page - 1)}
      >
        <ChevronLeftIcon />
      </Button>
      <PageInput page={page} count={pageCount} onGoTo={onGoTo} />
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label="Next page"
        className="hidden sm:inline-flex"
        disabled={page >= pageCount}
        onClick={() => onGoTo(page + 1)}
      >
        <ChevronRightIcon />
      </Button>
      <div className="ml-auto flex items-center gap-1">
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Zoom out"
          disabled={scale <= MIN_ZOOM}
          onClick={() => onZoom(-1)}
        >
          <ZoomOutIcon />
        </Button>
        <output aria-label="Zoom" className="w-11 text-center text-sm tabular-nums">
          {zoomLabel(scale)}
        </output>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Zoom in"
          disabled={scale >= MAX_ZOOM}
          onClick={() => onZoom(1)}
        >
          <ZoomInIcon />
        </Button>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Fit width"
          aria-pressed={fitting}
          onClick={onFitWidth}
        >
          <MoveHorizontalIcon />
        </Button>
        <Button
          ref={findButtonRef}
          variant="ghost"
          size="icon-sm"
          aria-label="Find"
          aria-expanded={findOpen}
          aria-keyshortcuts="Control+F Meta+F"
          onClick={onToggleFind}
        >
          <SearchIcon />
        </Button>
      </div>
    </div>
  )
}
