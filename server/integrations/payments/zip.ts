import zlib from 'node:zlib'

/**
 * The little of the ZIP format Alipay's bill files need (APPNOTE.TXT: local headers, central directory, end of
 * central directory; entries stored or deflated): reading the archive Alipay's bill download answers, and writing
 * one for the simulator. No ZIP64, no encryption, no multi-disk archives: a daily bill is far below 4 GB.
 */

export interface ZipEntry {
  name: string
  data: Buffer
}

const LOCAL = 0x04034b50
const CENTRAL = 0x02014b50
const END = 0x06054b50
/** General purpose flag 11: the name is UTF-8 (otherwise it is in the archiver's code page: GBK for Alipay's). */
const UTF8_NAME = 0x0800

function entryName(raw: Buffer, flags: number) {
  return new TextDecoder(flags & UTF8_NAME ? 'utf-8' : 'gbk').decode(raw)
}

/** The files of an archive; throws an Error saying what is wrong when it is not a ZIP this reader understands. */
export function readZip(zip: Buffer): ZipEntry[] {
  let end = -1
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65_535); i--) {
    if (zip.readUInt32LE(i) === END) {
      end = i
      break
    }
  }
  if (end < 0) throw new Error('not a ZIP archive (no end of central directory)')
  const count = zip.readUInt16LE(end + 10)
  let at = zip.readUInt32LE(end + 16)
  const entries: ZipEntry[] = []
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== CENTRAL) throw new Error('ZIP central directory is damaged')
    const flags = zip.readUInt16LE(at + 8)
    const method = zip.readUInt16LE(at + 10)
    const crc = zip.readUInt32LE(at + 16)
    const size = zip.readUInt32LE(at + 20)
    const nameLength = zip.readUInt16LE(at + 28)
    const extraLength = zip.readUInt16LE(at + 30)
    const commentLength = zip.readUInt16LE(at + 32)
    const local = zip.readUInt32LE(at + 42)
    const name = entryName(zip.subarray(at + 46, at + 46 + nameLength), flags)
    if (zip.readUInt32LE(local) !== LOCAL) throw new Error(`ZIP entry ${name} is damaged`)
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)
    const raw = zip.subarray(start, start + size)
    let data: Buffer
    if (method === 0) data = Buffer.from(raw)
    else if (method === 8) data = zlib.inflateRawSync(raw)
    else throw new Error(`ZIP entry ${name} uses compression method ${method}`)
    if (zlib.crc32(data) !== crc) throw new Error(`ZIP entry ${name} fails its CRC`)
    entries.push({ name, data })
    at += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

/**
 * The fields a local header and a central directory header both carry, in the same order from `at` (the version
 * needed to extract): version 2.0, deflate, the CRC, the packed and plain sizes and the name's length.
 */
function writeEntryFields(
  header: Buffer,
  at: number,
  e: { crc: number; packedLength: number; size: number; nameLength: number },
) {
  header.writeUInt16LE(20, at)
  header.writeUInt16LE(8, at + 4)
  header.writeUInt32LE(e.crc, at + 10)
  header.writeUInt32LE(e.packedLength, at + 14)
  header.writeUInt32LE(e.size, at + 18)
  header.writeUInt16LE(e.nameLength, at + 22)
}

/** An archive of `files`, deflated; names are written in GBK (without the UTF-8 flag), as Alipay's bills come. */
export function writeZip(files: ZipEntry[], encodeName: (name: string) => Buffer): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const f of files) {
    const name = encodeName(f.name)
    const packed = zlib.deflateRawSync(f.data)
    const crc = zlib.crc32(f.data)
    const entry = { crc, packedLength: packed.length, size: f.data.length, nameLength: name.length }
    const local = Buffer.alloc(30)
    local.writeUInt32LE(LOCAL, 0)
    writeEntryFields(local, 4, entry)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(CENTRAL, 0)
    central.writeUInt16LE(20, 4)
    writeEntryFields(central, 6, entry)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, packed)
    centrals.push(central, name)
    offset += local.length + name.length + packed.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(END, 0)
  end.writeUInt16LE(files.length, 8)
  end.writeUInt16LE(files.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}
