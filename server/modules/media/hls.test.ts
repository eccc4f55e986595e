import { describe, expect, it } from 'vitest'
import { parseMediaPlaylist, rewriteMasterPlaylist, rewriteMediaPlaylist } from './hls.ts'

const media = `#EXTM3U
#EXT-X-VERSION:3
#EXT-X-TARGETDURATION:6
#EXT-X-MEDIA-SEQUENCE:0
#EXT-X-PLAYLIST-TYPE:VOD
#EXT-X-KEY:METHOD=AES-128,URI="key://zixue",IV=0x00112233445566778899aabbccddeeff
#EXTINF:6.000000,
seg_00000.ts
#EXTINF:6.000000,
seg_00001.ts
#EXTINF:6.000000,
seg_00002.ts
#EXTINF:2.500000,
seg_00003.ts
#EXT-X-ENDLIST
`

const rewrite = (untilSecond: number | null) =>
  rewriteMediaPlaylist(media, { segmentUrl: (u) => `/s/${u}?sig=x`, keyUrl: '/api/video/key?vid=1&sig=x', untilSecond })

describe('parseMediaPlaylist', () => {
  it('gives every segment its start time', () => {
    expect(parseMediaPlaylist(media)).toEqual([
      { uri: 'seg_00000.ts', start: 0, duration: 6 },
      { uri: 'seg_00001.ts', start: 6, duration: 6 },
      { uri: 'seg_00002.ts', start: 12, duration: 6 },
      { uri: 'seg_00003.ts', start: 18, duration: 2.5 },
    ])
  })
})

describe('rewriteMediaPlaylist', () => {
  it('signs every segment and the key URI, keeping the IV', () => {
    const out = rewrite(null)
    expect(out).toContain(
      '#EXT-X-KEY:METHOD=AES-128,URI="/api/video/key?vid=1&sig=x",IV=0x00112233445566778899aabbccddeeff',
    )
    expect(out).not.toContain('key://')
    expect(out.match(/^\/s\/seg_\d+\.ts\?sig=x$/gm)).toHaveLength(4)
    expect(out.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true)
  })

  it.each([
    [1, ['seg_00000.ts']],
    [6, ['seg_00000.ts']],
    [7, ['seg_00000.ts', 'seg_00001.ts']],
    [18, ['seg_00000.ts', 'seg_00001.ts', 'seg_00002.ts']],
    [120, ['seg_00000.ts', 'seg_00001.ts', 'seg_00002.ts', 'seg_00003.ts']],
  ])('for a preview until second %i lists only the segments that start before it, then ends', (until, expected) => {
    const out = rewrite(until)
    expect([...out.matchAll(/\/s\/(seg_\d+\.ts)/g)].map((m) => m[1])).toEqual(expected)
    expect(out.match(/#EXTINF/g)).toHaveLength(expected.length)
    expect(out.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true)
    expect(out.match(/#EXT-X-ENDLIST/g)).toHaveLength(1)
  })

  it('keeps the header and ends at once when nothing may be played', () => {
    expect(rewrite(0)).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-ENDLIST\n',
    )
  })
})

describe('rewriteMasterPlaylist', () => {
  it('signs each variant URI and leaves the tags alone', () => {
    const master =
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=985600,RESOLUTION=640x360,CODECS="avc1.42c01e,mp4a.40.2"\n360p/index.m3u8\n\n#EXT-X-STREAM-INF:BANDWIDTH=3220800,RESOLUTION=1280x720\n720p/index.m3u8\n'
    expect(rewriteMasterPlaylist(master, (u) => `/v/${u}?sig=y`)).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=985600,RESOLUTION=640x360,CODECS="avc1.42c01e,mp4a.40.2"\n/v/360p/index.m3u8?sig=y\n#EXT-X-STREAM-INF:BANDWIDTH=3220800,RESOLUTION=1280x720\n/v/720p/index.m3u8?sig=y\n',
    )
  })
})
