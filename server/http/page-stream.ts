import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable, type Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'
import { compressible } from './compression.ts'

type Encoding = 'br' | 'gzip'

/** Brotli, else gzip, as Accept-Encoding allows (a `q=0` refuses one); null: send it as it is. */
export function pickEncoding(accept: string | string[] | undefined): Encoding | null {
  const allowed = new Map<string, number>()
  for (const part of String(accept ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean)
    if (name) allowed.set(name.trim(), q === undefined ? 1 : Number(q))
  }
  const weight = (name: Encoding) => allowed.get(name) ?? (allowed.get('*') || 0)
  if (weight('br') > 0) return 'br'
  if (weight('gzip') > 0) return 'gzip'
  return null
}

/** Per request, so cheap settings: Brotli quality 4 as @fastify/compress uses for the other answers, gzip level 6. */
function encoder(encoding: Encoding): Transform {
  return encoding === 'br'
    ? zlib.createBrotliCompress({
        params: {
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
        },
      })
    : zlib.createGzip({ level: 6 })
}

/** What the answer's Vary says, with Accept-Encoding added once. */
function varyWithEncoding(vary: string | null) {
  if (!vary) return 'accept-encoding'
  return /(^|,)\s*accept-encoding\s*(,|$)/i.test(vary) || vary.trim() === '*' ? vary : `${vary}, accept-encoding`
}

/**
 * Writes a fetch Response (React Router's per-request render: a streamed page, a `.data` load, `/__manifest`) to
 * Node's response, compressed as Accept-Encoding allows when its type is text (compression.ts) and it is not known
 * to be under 1 KB. Streaming survives compression: whatever arrived is flushed out of the compressor as soon as
 * the render pauses (once the chunks of one turn of the event loop are in), so the page's shell does not wait for
 * the data streamed after it.
 */
export async function sendPageResponse(req: IncomingMessage, res: ServerResponse, response: Response) {
  const type = response.headers.get('content-type') ?? ''
  const length = Number(response.headers.get('content-length') ?? Infinity)
  const textual = compressible(type) && !response.headers.has('content-encoding')
  const encoding =
    textual && response.body && req.method !== 'HEAD' && length >= 1024
      ? pickEncoding(req.headers['accept-encoding'])
      : null
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of response.headers) if (name !== 'set-cookie') headers[name] = value
  const cookies = response.headers.getSetCookie()
  if (cookies.length) headers['set-cookie'] = cookies
  if (textual) headers.vary = varyWithEncoding(response.headers.get('vary'))
  if (encoding) {
    headers['content-encoding'] = encoding
    delete headers['content-length']
  }
  res.writeHead(response.status, headers)
  if (!response.body || req.method === 'HEAD') {
    res.end()
    return
  }
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream)
  if (!encoding) return pipeline(body, res)
  const zip = encoder(encoding)
  let flushing = false
  body.on('data', () => {
    if (flushing) return
    flushing = true
    setImmediate(() => {
      flushing = false
      if (!zip.writableEnded && !zip.destroyed) (zip as zlib.Gzip).flush()
    })
  })
  return pipeline(body, zip, res)
}
