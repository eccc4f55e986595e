/** Reading and rewriting HLS playlists (RFC 8216) as the transcoder writes them. Pure functions. */

export interface Segment {
  uri: string
  /** Seconds from the start of the video. */
  start: number
  duration: number
}

const SEGMENT_TAGS = [
  '#EXTINF',
  '#EXT-X-BYTERANGE',
  '#EXT-X-DISCONTINUITY',
  '#EXT-X-PROGRAM-DATE-TIME',
  '#EXT-X-KEY',
  '#EXT-X-MAP',
]

const isSegmentTag = (line: string) => SEGMENT_TAGS.some((t) => line === t || line.startsWith(`${t}:`))
const lines = (text: string) => text.split(/\r?\n/).map((l) => l.trim())

function extinfDuration(line: string) {
  const value = Number.parseFloat(line.slice('#EXTINF:'.length))
  return Number.isFinite(value) && value >= 0 ? value : 0
}

/** The segments of a media playlist with their start times. */
export function parseMediaPlaylist(text: string): Segment[] {
  const segments: Segment[] = []
  let start = 0
  let duration = 0
  for (const line of lines(text)) {
    if (line.startsWith('#EXTINF:')) duration = extinfDuration(line)
    else if (line !== '' && !line.startsWith('#')) {
      segments.push({ uri: line, start, duration })
      start += duration
      duration = 0
    }
  }
  return segments
}

function replaceUri(line: string, uri: string) {
  return line.replace(/URI="[^"]*"/, `URI="${uri}"`)
}

export interface MediaRewrite {
  segmentUrl: (uri: string) => string
  keyUrl: string
  /** List only the segments that start before this second, then end the playlist (the free preview); null: all. */
  untilSecond: number | null
}

/**
 * A media playlist as a client receives it: every segment and key URI replaced by a signed URL and, for a preview,
 * cut after the last segment that starts before `untilSecond` and closed with #EXT-X-ENDLIST.
 */
export function rewriteMediaPlaylist(text: string, options: MediaRewrite): string {
  const out: string[] = []
  let pending: string[] = []
  let start = 0
  let duration = 0
  for (const line of lines(text)) {
    // The source always ends with #EXT-X-ENDLIST (VOD); it is written once, after the (possibly cut) list.
    if (line === '' || line === '#EXT-X-ENDLIST') continue
    if (line.startsWith('#')) {
      if (line.startsWith('#EXTINF:')) duration = extinfDuration(line)
      const rewritten =
        line.startsWith('#EXT-X-KEY:') && !line.includes('METHOD=NONE') ? replaceUri(line, options.keyUrl) : line
      if (isSegmentTag(line)) pending.push(rewritten)
      else out.push(rewritten)
      continue
    }
    if (options.untilSecond !== null && start >= options.untilSecond) break
    out.push(...pending, options.segmentUrl(line))
    pending = []
    start += duration
    duration = 0
  }
  out.push('#EXT-X-ENDLIST')
  return `${out.join('\n')}\n`
}

/** A master playlist with each variant (and any URI attribute) replaced by a signed URL. */
export function rewriteMasterPlaylist(text: string, variantUrl: (uri: string) => string): string {
  const out: string[] = []
  for (const line of lines(text)) {
    if (line === '') continue
    if (line.startsWith('#')) {
      const m = /URI="([^"]*)"/.exec(line)
      out.push(m ? replaceUri(line, variantUrl(m[1]!)) : line)
    } else out.push(variantUrl(line))
  }
  return `${out.join('\n')}\n`
}
