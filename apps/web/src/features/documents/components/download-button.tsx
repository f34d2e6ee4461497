import { DownloadIcon } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { errorMessage } from '@/lib/errors'
import { originalDownloadUrl } from '../api/download-original'

/** Downloads the original through a signed link made on click (the bucket is private). */
export function DownloadButton({ path, fileName }: { path: string; fileName: string }) {
  const [pending, setPending] = useState(false)
  async function download() {
    setPending(true)
    try {
      window.location.assign(await originalDownloadUrl(path, fileName))
    } catch (error) {
      toast.error(`Could not download the original: ${errorMessage(error)}`)
    } finally {
      setPending(false)
    }
  }
  return (
    <Button variant="outline" disabled={pending} onClick={() => void download()}>
      <DownloadIcon /> Download
    </Button>
  )
}
