import { corsHeaders } from '../_shared/http.ts'

export type EventSink = { send(event: string, data: unknown): void; close(): void }

const encoder = new TextEncoder()

/**
 * A text/event-stream response and the sink that writes its events. `onCancel` runs when
 * the client goes away (Stop), which is how a turn learns to stop.
 */
export function eventStream(onCancel: () => void): { response: Response; sink: EventSink } {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let open = true
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c
    },
    cancel: () => {
      open = false
      onCancel()
    },
  })
  const sink: EventSink = {
    send(event, data) {
      if (open)
        controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`))
    },
    close() {
      if (!open) return
      open = false
      controller.close()
    },
  }
  const headers = {
    ...corsHeaders,
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    'X-Accel-Buffering': 'no',
  }
  return { response: new Response(body, { headers }), sink }
}
