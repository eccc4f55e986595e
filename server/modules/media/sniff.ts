import { Readable } from 'node:stream'

export interface SniffedVideo {
  container: 'mp4' | 'mov' | 'webm-mkv' | 'avi' | 'mpeg-ts' | 'flv'
  ext: string
}

/** How many leading bytes `sniffVideo` wants (an MPEG-TS needs three 188-byte packets to be recognised). */
export const SNIFF_BYTES = 1024

const ascii = (buf: Buffer, start: number, end: number) => buf.toString('latin1', start, end)

/**
 * The container of a video file, recognised by its first bytes (never by its name or declared type), or null.
 * ffprobe then confirms that it holds a video stream.
 */
export function sniffVideo(head: Buffer): SniffedVideo | null {
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12)
    return brand === 'qt  ' ? { container: 'mov', ext: 'mov' } : { container: 'mp4', ext: 'mp4' }
  }
  // Older QuickTime files start with another top-level atom.
  if (
    head.length >= 8 &&
    ['moov', 'mdat', 'wide', 'free', 'skip'].includes(ascii(head, 4, 8)) &&
    head.readUInt32BE(0) >= 8
  ) {
    return { container: 'mov', ext: 'mov' }
  }
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return { container: 'webm-mkv', ext: 'mkv' }
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'AVI ')
    return { container: 'avi', ext: 'avi' }
  if (head.length >= 4 && ascii(head, 0, 3) === 'FLV' && head[3] === 1) return { container: 'flv', ext: 'flv' }
  // MPEG-TS: a sync byte every 188 bytes; M2TS (Blu-ray, camcorders) puts a 4-byte timecode before each packet.
  if (head.length >= 377 && head[0] === 0x47 && head[188] === 0x47 && head[376] === 0x47)
    return { container: 'mpeg-ts', ext: 'ts' }
  if (head.length >= 389 && head[4] === 0x47 && head[196] === 0x47 && head[388] === 0x47)
    return { container: 'mpeg-ts', ext: 'm2ts' }
  return null
}

/**
 * Reads the first `bytes` bytes of a stream without losing them: returns them and a stream that yields the whole
 * content again (head first). Only the head is buffered.
 */
export async function peek(stream: Readable, bytes: number): Promise<{ head: Buffer; stream: Readable }> {
  const chunks: Buffer[] = []
  let length = 0
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  let ended = false
  while (length < bytes) {
    const next = await iterator.next()
    if (next.done) {
      ended = true
      break
    }
    chunks.push(next.value)
    length += next.value.length
  }
  const buffered = Buffer.concat(chunks)
  async function* replay() {
    yield buffered
    if (ended) return
    for (;;) {
      const next = await iterator.next()
      if (next.done) return
      yield next.value
    }
  }
  return { head: buffered.subarray(0, bytes), stream: Readable.from(replay(), { objectMode: false }) }
}
