import { env } from '@/config/env'
import { supabase } from '@/lib/supabase'
import type { FromWorker, ToWorker } from '../worker/protocol'

/**
 * The page's end of the ingest worker: started on first use, told the session's access
 * token first and again whenever supabase-js refreshes it, and stopped at sign-out.
 */
export class IngestWorker {
  private worker: Worker | undefined
  private ready: Promise<Worker> | undefined
  private readonly onMessage: (message: FromWorker) => void
  private readonly onCrash: (reason: string) => void

  constructor(onMessage: (message: FromWorker) => void, onCrash: (reason: string) => void) {
    this.onMessage = onMessage
    this.onCrash = onCrash
    supabase.auth.onAuthStateChange((event, session) => {
      if (!this.worker) return
      if (event === 'SIGNED_OUT' || !session) this.stop('signed out')
      else this.post({ type: 'auth', ...credentials(session.access_token) })
    })
  }

  async send(message: ToWorker) {
    // A failed start (no session) is not remembered: the next file tries again.
    this.ready ??= this.start().catch((error: unknown) => {
      this.ready = undefined
      throw error
    })
    const worker = await this.ready
    worker.postMessage(message)
  }

  private async start(): Promise<Worker> {
    const { data } = await supabase.auth.getSession()
    if (!data.session) throw new Error('Sign in to upload documents.')
    const worker = new Worker(new URL('../worker/ingest.worker.ts', import.meta.url), {
      type: 'module',
    })
    worker.onmessage = ({ data: message }: MessageEvent<FromWorker>) => this.onMessage(message)
    worker.onerror = (event) => this.stop(event.message || 'the upload worker stopped')
    worker.postMessage({ type: 'auth', ...credentials(data.session.access_token) })
    this.worker = worker
    return worker
  }

  private post(message: ToWorker) {
    this.worker?.postMessage(message)
  }

  private stop(reason: string) {
    this.worker?.terminate()
    this.worker = undefined
    this.ready = undefined
    this.onCrash(reason)
  }
}

const credentials = (accessToken: string) => ({
  url: env.SUPABASE_URL,
  key: env.SUPABASE_PUBLISHABLE_KEY,
  accessToken,
})
