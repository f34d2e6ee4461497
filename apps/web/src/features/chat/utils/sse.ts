export type SseEvent = { event: string; data: string }

/**
 * An incremental text/event-stream parser (the WHATWG rules the chat function relies on):
 * lines end in LF, CRLF or CR; `event:` names the event, `data:` lines join with LF, a
 * blank line dispatches, `:` lines are comments; one space after the colon is dropped.
 */
export class SseParser {
  private buffer = ''
  private event = ''
  private data: string[] = []

  /** Feeds a decoded chunk; returns the events it completed. */
  feed(chunk: string): SseEvent[] {
    this.buffer += chunk
    const events: SseEvent[] = []
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/)
      if (end === -1) break
      // A CR at the very end may be the first half of a CRLF split across chunks.
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) break
      const line = this.buffer.slice(0, end)
      this.buffer = this.buffer.slice(end + (this.buffer.startsWith('\r\n', end) ? 2 : 1))
      const event = this.line(line)
      if (event) events.push(event)
    }
    return events
  }

  private line(line: string): SseEvent | null {
    if (line === '') {
      const event =
        this.data.length > 0 ? { event: this.event || 'message', data: this.data.join('\n') } : null
      this.event = ''
      this.data = []
      return event
    }
    if (line.startsWith(':')) return null
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'event') this.event = value
    else if (field === 'data') this.data.push(value)
    return null
  }
}

/** The events of a streamed response body, as they arrive. */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const parser = new SseParser()
  const decoder = new TextDecoder()
  const reader = body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      // `stream: true` keeps a character split across chunks for the next one.
      yield* parser.feed(decoder.decode(value, { stream: true }))
    }
    // A stream that ends without its final blank line still delivers its last event.
    yield* parser.feed(`${decoder.decode()}\n\n`)
  } finally {
    reader.releaseLock()
  }
}
