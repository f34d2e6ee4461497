import { Button } from '@/components/ui/button'

export type PdfView = 'pages' | 'text'

const views: [PdfView, string][] = [
  ['pages', 'Pages'],
  ['text', 'Text'],
]

/** A PDF as its pages, or as its extracted text (where a passage is marked exactly). */
export function ViewToggle({
  value,
  onChange,
}: {
  value: PdfView
  onChange: (v: PdfView) => void
}) {
  return (
    <div role="group" aria-label="View" className="bg-muted flex w-fit gap-1 rounded-lg p-1">
      {views.map(([view, label]) => (
        <Button
          key={view}
          size="sm"
          variant={value === view ? 'outline' : 'ghost'}
          aria-pressed={value === view}
          className="h-7"
          onClick={() => onChange(view)}
        >
          {label}
        </Button>
      ))}
    </div>
  )
}
