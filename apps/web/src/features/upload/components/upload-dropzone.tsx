import { UploadIcon } from 'lucide-react'
import type * as React from 'react'
import { useDropzone } from 'react-dropzone'
import { cn } from '@/lib/utils'
import { useUploads } from '../hooks/use-uploads'

type UploadDropzoneProps = {
  workspaceId: string
  /** The page inside the drop area; `open` shows the file picker. */
  children: (open: () => void) => React.ReactNode
}

/**
 * Makes its whole area a drop target for files (many at once), with the file input inside,
 * labelled "Upload files". Each file joins the upload queue.
 */
export function UploadDropzone({ workspaceId, children }: UploadDropzoneProps) {
  const { add } = useUploads(workspaceId)
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    onDrop: (files) => add(files),
    noClick: true,
    noKeyboard: true,
    multiple: true,
  })
  return (
    <div {...getRootProps({ className: 'relative min-h-full' })}>
      <input {...getInputProps({ 'aria-label': 'Upload files' })} />
      {children(open)}
      <div
        aria-hidden
        className={cn(
          'bg-background/80 border-primary pointer-events-none absolute inset-2 z-40 grid place-items-center rounded-xl border-2 border-dashed backdrop-blur-sm transition-opacity',
          isDragActive ? 'opacity-100' : 'opacity-0',
        )}
      >
        <div className="flex flex-col items-center gap-2 text-sm font-medium">
          <UploadIcon className="text-primary size-6" />
          Drop files to add them to the library
        </div>
      </div>
    </div>
  )
}
