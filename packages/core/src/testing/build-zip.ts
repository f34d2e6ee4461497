import { crc32, deflateRawSync } from 'node:zlib'

/** Test-only: a minimal ZIP writer (deflated entries, one central directory). */
export function buildZip(entries: { name: string; data: Uint8Array }[]): Uint8Array {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const { name, data } of entries) {
    const fileName = Buffer.from(name)
    const compressed = deflateRawSync(data)
    const fields = { crc: crc32(data), compressed: compressed.length, size: data.length }
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(8, 8)
    local.writeUInt32LE(fields.crc, 14)
    local.writeUInt32LE(fields.compressed, 18)
    local.writeUInt32LE(fields.size, 22)
    local.writeUInt16LE(fileName.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(8, 10)
    central.writeUInt32LE(fields.crc, 16)
    central.writeUInt32LE(fields.compressed, 20)
    central.writeUInt32LE(fields.size, 24)
    central.writeUInt16LE(fileName.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, fileName, compressed)
    centrals.push(central, fileName)
    offset += local.length + fileName.length + compressed.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return new Uint8Array(Buffer.concat([...locals, directory, end]))
}
