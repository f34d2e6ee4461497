import { useState } from 'react'
import { toast } from 'sonner'

/** Copies text to the clipboard; `copied` is true for two seconds after it has. */
export function useCopy() {
  const [copied, setCopied] = useState(false)
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(true)
      setTimeout(() => setCopied(false), 2000)
    } catch {
      toast.error('Could not copy: select the text and copy it by hand.')
    }
  }
  return { copied, copy }
}
