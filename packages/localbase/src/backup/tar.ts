import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, stat } from 'node:fs/promises'
import { dirname, join, normalize } from 'node:path'
import { Readable, type Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

// A minimal POSIX ustar writer and reader for backups: regular files only, names up to 100
// bytes (ours are `manifest.json` and `database.tar.gz`), files streamed from disk. Any
// `tar` can list and extract what it writes.

const BLOCK = 512

function header(name: string, size: number, mtime: Date): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`name too long for the archive: ${name}`)
  const h = Buffer.alloc(BLOCK)
  h.write(name, 0, 'utf8')
  h.write('0000644\0', 100)
  h.write('0000000\0', 108)
  h.write('0000000\0', 116)
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124)
  h.write(
    `${Math.floor(mtime.getTime() / 1000)
      .toString(8)
      .padStart(11, '0')}\0`,
    136,
  )
  h.write('        ', 148)
  h.write('0', 156)
  h.write('ustar\0', 257)
  h.write('00', 263)
  let sum = 0
  for (const byte of h) sum += byte
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148)
  return h
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK)

/** Writes entries to `out` one after another; `end()` writes the two closing blocks. */
export class TarWriter {
  private readonly out: Writable
  constructor(out: Writable) {
    this.out = out
  }

  private write(chunk: Buffer): Promise<void> {
    return new Promise((resolve, reject) =>
      this.out.write(chunk, (error) => (error ? reject(error) : resolve())),
    )
  }

  async addBuffer(name: string, bytes: Uint8Array): Promise<void> {
    await this.write(header(name, bytes.byteLength, new Date()))
    await this.write(Buffer.from(bytes))
    await this.write(padding(bytes.byteLength))
  }

  async addFile(name: string, path: string): Promise<void> {
    const { size, mtime } = await stat(path)
    await this.write(header(name, size, mtime))
    for await (const chunk of createReadStream(path)) await this.write(chunk as Buffer)
    await this.write(padding(size))
  }

  async end(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2))
    await new Promise<void>((resolve, reject) => {
      this.out.once('error', reject)
      this.out.end(resolve)
    })
  }
}

/**
 * Reads an archive from `input`, writing each regular file under `dir` (names must stay
 * inside it) and calling `onFile` with its archive name once it is written.
 */
export async function extractTar(
  input: AsyncIterable<Buffer>,
  dir: string,
  onFile: (name: string, path: string) => void = () => {},
): Promise<void> {
  let buffer = Buffer.alloc(0)
  const iterator = input[Symbol.asyncIterator]()
  let done = false
  const need = async (bytes: number) => {
    while (buffer.length < bytes && !done) {
      const next = await iterator.next()
      if (next.done) done = true
      else buffer = Buffer.concat([buffer, next.value])
    }
    if (buffer.length < bytes) throw new Error('the archive ends early')
  }
  for (;;) {
    await need(BLOCK)
    const h = buffer.subarray(0, BLOCK)
    buffer = buffer.subarray(BLOCK)
    if (h.every((b) => b === 0)) return
    const name = h.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '')
    const size = parseInt(h.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim(), 8)
    const type = String.fromCharCode(h[156]!)
    const target = normalize(join(dir, name))
    if (!target.startsWith(normalize(dir) + '/'))
      throw new Error(`unsafe name in the archive: ${name}`)
    const padded = size + padding(size).length
    if (type === '0' || type === '\0') {
      await mkdir(dirname(target), { recursive: true })
      const out = createWriteStream(target)
      let left = size
      const body = async function* () {
        while (left > 0) {
          await need(Math.min(left, 1))
          const piece = buffer.subarray(0, Math.min(left, buffer.length))
          buffer = buffer.subarray(piece.length)
          left -= piece.length
          yield piece
        }
      }
      await pipeline(Readable.from(body()), out)
      await need(padded - size)
      buffer = buffer.subarray(padded - size)
      onFile(name, target)
    } else {
      await need(padded)
      buffer = buffer.subarray(padded)
    }
  }
}
