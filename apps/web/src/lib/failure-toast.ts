import { toast } from 'sonner'
import { errorMessage, isConnectionProblem } from './errors'

/**
 * A failed change, said as a person would ("Could not rename the document: Lost the
 * connection…"), with Retry when the connection failed rather than the request. That toast
 * stays until used or closed: an outage outlasts a toast's few seconds, and Retry is for after.
 */
export function failureToast(what: string, error: unknown, retry: () => void) {
  toast.error(
    `${what}: ${errorMessage(error)}`,
    isConnectionProblem(error)
      ? { action: { label: 'Retry', onClick: retry }, duration: Infinity }
      : undefined,
  )
}
