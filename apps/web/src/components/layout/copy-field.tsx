import { CheckIcon, CopyIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { useCopy } from '@/hooks/use-copy'

type CopyFieldProps = {
  value: string
  /** The field's accessible name; the button is "Copy <label>". */
  label: string
  id?: string
}

/** A read-only value with a copy button that says when it has copied. */
export function CopyField({ value, label, id }: CopyFieldProps) {
  const { copied, copy } = useCopy()
  return (
    <div className="flex gap-2">
      <Input
        id={id}
        readOnly
        value={value}
        aria-label={label}
        onFocus={(event) => event.currentTarget.select()}
        className="font-mono text-xs"
      />
      <Button
        type="button"
        variant="outline"
        size="icon"
        onClick={() => void copy(value)}
        aria-label={`Copy ${label.toLowerCase()}`}
      >
        {copied ? <CheckIcon /> : <CopyIcon />}
      </Button>
      <span className="sr-only" role="status">
        {copied ? 'Copied' : ''}
      </span>
    </div>
  )
}
