import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { peek, sniffVideo } from './sniff.ts'

const pad = (head: Buffer | string, size = 1024) => {
  const b = Buffer.alloc(size)
  Buffer.from(head as string, typeof head === 'string' ? 'latin1' : undefined).copy(b)
  return b
}

function ts(offset = 0, packet = 188) {
  const b = Buffer.alloc(1024)
  for (let i = offset; i < b.length; i += packet) b[i] = 0x47
  return b
}

describe('sniffVideo', () => {
  it.each([
    ['MP4 (ftyp isom)', pad('\x00\x00\x00\x20ftypisom\x00\x00\x02\x00'), 'mp4'],
    ['MOV (ftyp qt)', pad('\x00\x00\x00\x14ftypqt  \x00\x00\x02\x00'), 'mov'],
    ['old QuickTime (moov first)', pad('\x00\x00\x10\x00moov'), 'mov'],
    ['WebM/MKV (EBML)', pad(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f])), 'webm-mkv'],
    ['AVI', pad('RIFF\x10\x00\x00\x00AVI LIST'), 'avi'],
    ['FLV', pad('FLV\x01\x05'), 'flv'],
    ['MPEG-TS', ts(), 'mpeg-ts'],
    ['M2TS', ts(4, 192), 'mpeg-ts'],
  ])('recognises %s', (_name, head, container) => {
    expect(sniffVideo(head)?.container).toBe(container)
  })

  it.each([
    ['a text file named .mp4', pad('This is not a video, just text pretending to be one.\n')],
    ['a PNG', pad('\x89PNG\r\n\x1a\n')],
    ['a WAV (RIFF but not AVI)', pad('RIFF\x10\x00\x00\x00WAVEfmt ')],
    ['a lone 0x47 byte', pad('G')],
    ['an empty file', Buffer.alloc(0)],
  ])('refuses %s', (_name, head) => {
    expect(sniffVideo(head)).toBeNull()
  })
})

describe('peek', () => {
  it('returns the head and a stream that still yields every byte', async () => {
    const chunks = [Buffer.from('abc'), Buffer.from('defgh'), Buffer.from('ijklmnop')]
    const { head, stream } = await peek(Readable.from(chunks), 6)
    expect(head.toString()).toBe('abcdef')
    const all: Buffer[] = []
    for await (const c of stream) all.push(c as Buffer)
    expect(Buffer.concat(all).toString()).toBe('abcdefghijklmnop')
  })

  it('copes with a stream shorter than the head', async () => {
    const { head, stream } = await peek(Readable.from([Buffer.from('xy')]), 100)
    expect(head.toString()).toBe('xy')
    const all: Buffer[] = []
    for await (const c of stream) all.push(c as Buffer)
    expect(Buffer.concat(all).toString()).toBe('xy')
  })
})
