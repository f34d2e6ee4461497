import { describe, expect, it } from 'vitest'
import { readSse, SseParser } from './sse'

describe('SseParser', () => {
  it('parses named events with JSON data', () => {
    const parser = new SseParser()
    expect(
      parser.feed('event: meta\ndata: {"model":null}\n\nevent: delta\ndata: {"text":"Hi"}\n\n'),
    ).toEqual([
      { event: 'meta', data: '{"model":null}' },
      { event: 'delta', data: '{"text":"Hi"}' },
    ])
  })

  it('holds partial lines and events until they complete, across any split', () => {
    const stream = 'event: delta\r\ndata: {"text":"a b"}\r\n\r\nevent: done\ndata: {}\n\n'
    for (let size = 1; size < stream.length; size++) {
      const parser = new SseParser()
      const events = []
      for (let at = 0; at < stream.length; at += size)
        events.push(...parser.feed(stream.slice(at, at + size)))
      expect(events).toEqual([
        { event: 'delta', data: '{"text":"a b"}' },
        { event: 'done', data: '{}' },
      ])
    }
  })

  it('joins data lines, skips comments, defaults the name, drops events without data', () => {
    const parser = new SseParser()
    expect(
      parser.feed(': keep-alive\n\ndata:one\ndata:  two\n\nevent: empty\n\nevent: x\rdata: y\r\r'),
    ).toEqual([{ event: 'message', data: 'one\n two' }])
    // The last CR may still be half of a CRLF; the next byte settles it.
    expect(parser.feed('data: z\n\n')).toEqual([
      { event: 'x', data: 'y' },
      { event: 'message', data: 'z' },
    ])
  })

  it('ignores unknown fields and a line without a colon', () => {
    const parser = new SseParser()
    expect(parser.feed('id: 7\nretry: 10\nevent\ndata: z\n\n')).toEqual([
      { event: 'message', data: 'z' },
    ])
  })
})

describe('readSse', () => {
  it('reads a byte stream split inside a multi-byte character, and a last event without its blank line', async () => {
    const bytes = new TextEncoder().encode(
      'event: delta\ndata: {"text":"café"}\n\nevent: done\ndata: 1',
    )
    const cut = bytes.indexOf(0xc3) + 1
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, cut))
        controller.enqueue(bytes.slice(cut))
        controller.close()
      },
    })
    const events = []
    for await (const event of readSse(body)) events.push(event)
    expect(events).toEqual([
      { event: 'delta', data: '{"text":"café"}' },
      { event: 'done', data: '1' },
    ])
  })
})
