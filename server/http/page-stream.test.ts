import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pickEncoding, sendPageResponse } from './page-stream.ts'

describe('which encoding a request allows', () => {
  it('Brotli first, then gzip; q=0 refuses one; nothing or identity: none', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br')
    expect(pickEncoding('gzip')).toBe('gzip')
    expect(pickEncoding('br;q=0, gzip;q=0.8')).toBe('gzip')
    expect(pickEncoding('*')).toBe('br')
    expect(pickEncoding('*, br;q=0')).toBe('gzip')
    expect(pickEncoding('identity')).toBeNull()
    expect(pickEncoding(undefined)).toBeNull()
    expect(pickEncoding('gzip;q=0, br;q=0')).toBeNull()
  })
})

/**
 * A streamed render: the shell at once, the rest when the test releases it. What the browser can decode must hold
 * the shell before the rest exists, or compression would have undone streaming.
 */
describe('a streamed page sent compressed', () => {
  let release: () => void = () => {}
  let server: http.Server
  const shell = `<!DOCTYPE html><html><head><title>壳</title></head><body>${'<p>课程列表</p>'.repeat(200)}`
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const encoder = new TextEncoder()
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode(shell))
          await new Promise<void>((resolve) => (release = resolve))
          controller.enqueue(encoder.encode('<script>later</script></body></html>'))
          controller.close()
        },
      })
      const headers = new Headers({ 'content-type': 'text/html; charset=utf-8', vary: 'cookie' })
      headers.append('set-cookie', 'a=1; Path=/')
      headers.append('set-cookie', 'b=2; Path=/')
      void sendPageResponse(req, res, new Response(body, { status: 200, headers }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  async function fetchStreamed(encoding: string) {
    const { port } = server.address() as AddressInfo
    return new Promise<{ res: http.IncomingMessage; early: string; whole: string }>((resolve, reject) => {
      http
        .get({ port, host: '127.0.0.1', path: '/', headers: { 'accept-encoding': encoding } }, (res) => {
          const decoder =
            res.headers['content-encoding'] === 'br'
              ? zlib.createBrotliDecompress()
              : res.headers['content-encoding'] === 'gzip'
                ? zlib.createGunzip()
                : null
          const text = decoder ?? res
          let got = ''
          let early = ''
          if (decoder) res.pipe(decoder)
          text.setEncoding('utf8')
          text.on('data', (chunk: string) => {
            got += chunk
            // The shell arrived whole before anything after it was sent: now let the render finish.
            if (!early && got.length >= shell.length) {
              early = got
              release()
            }
          })
          text.on('end', () => resolve({ res, early, whole: got }))
          text.on('error', reject)
        })
        .on('error', reject)
    })
  }

  for (const encoding of ['br', 'gzip'] as const) {
    it(`${encoding}: the shell decodes before the rest is rendered, then the whole page`, async () => {
      const { res, early, whole } = await fetchStreamed(encoding)
      expect(res.headers['content-encoding']).toBe(encoding)
      expect(res.headers['content-length']).toBeUndefined()
      expect(res.headers.vary).toBe('cookie, accept-encoding')
      expect(res.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/'])
      expect(early).toBe(shell)
      expect(whole).toBe(`${shell}<script>later</script></body></html>`)
    })
  }

  it('identity when the request allows no compression', async () => {
    const { res, whole } = await fetchStreamed('identity')
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(whole.endsWith('</html>')).toBe(true)
  })
})
