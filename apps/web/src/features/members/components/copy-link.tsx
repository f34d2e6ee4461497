import { CheckIcon, CopyIcon } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'

/** A read-only link with a copy button. */
export function CopyLink({ link, label }: { link: string; label: string }) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link)
      setCopied(true)
      setTimeout(() => setCopied(false), 2000)
    } catch {
      toast.error('Could not copy: select the link and copy it by hand.')
    }
  }
  return (
    <div className="flex gap-2">
      <Input
        readOnly
        value={link}
        aria-label={label}
        data-testid="invitation-link"
        onFocus={(event) => event.currentTarget.select()}
        className="font-mono text-xs"
      />
      <Button type="button" variant="outline" size="icon" onClick={copy} aria-label="Copy link">
        {copied ? <CheckIcon /> : <CopyIcon />}
      </Button>
    </div>
  )
}
