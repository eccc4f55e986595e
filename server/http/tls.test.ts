import http2 from 'node:http2'
import https from 'node:https'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedIfEmpty } from '#server/db/seed.ts'
import { loadConfig } from '#server/config.ts'
import { useTestApp } from '#tests/support/app.ts'
import { firstLoadAssets } from '#tests/support/first-load.ts'
import { throwawayCertificate } from '#tests/support/throwaway-certificate.ts'

// TLS_CERT_FILE and TLS_KEY_FILE (server/app.ts `tlsOptions`): the server speaks HTTP/2 to clients that negotiate
// it and HTTP/1.1 over TLS to the rest. Needs the production build (`npm test` builds before the unit tests).
const { dir, certFile, keyFile, remove } = throwawayCertificate()
afterAll(remove)

interface Answer {
  status: number
  headers: http2.IncomingHttpHeaders
  body: Buffer
}

describe('the server over TLS', () => {
  const t = useTestApp({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile }, { web: 'production' })
  let origin = ''
  let session: http2.ClientHttp2Session

  beforeAll(async () => {
    await seedIfEmpty(t().database.db, { info: () => {} })
    await t().app.listen({ host: '127.0.0.1', port: 0 })
    const address = t().app.server.address()
    origin = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    session = http2.connect(origin, { rejectUnauthorized: false })
  })
  afterAll(() => session?.close())

  function h2(urlPath: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
    return new Promise<Answer>((resolve, reject) => {
      const stream = session.request({ ':method': init.method ?? 'GET', ':path': urlPath, ...init.headers })
      const chunks: Buffer[] = []
      let headers: http2.IncomingHttpHeaders = {}
      stream.on('response', (h) => (headers = h))
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => resolve({ status: Number(headers[':status']), headers, body: Buffer.concat(chunks) }))
      stream.on('error', reject)
      stream.end(init.body)
    })
  }

  it('negotiates HTTP/2 and answers the API', async () => {
    const res = await h2('/api/v3/index')
    expect(session.alpnProtocol).toBe('h2')
    expect(res.status).toBe(200)
    expect((JSON.parse(res.body.toString()) as { code: number }).code).toBe(200)
  })

  it('reads JSON bodies and answers errors in Chinese over HTTP/2', async () => {
    const res = await h2('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mobile: '123', sms_code: '1' }),
    })
    const body = JSON.parse(res.body.toString()) as { code: number; msg: string }
    expect(body.code).not.toBe(200)
    expect(body.msg).toMatch(/[\u4e00-\u9fa5]/)
  })

  it('serves a cached public page compressed, a per-visitor page streamed, and the hashed scripts', async () => {
    const home = await h2('/', { headers: { 'accept-encoding': 'br' } })
    expect(home.status).toBe(200)
    expect(home.headers['content-encoding']).toBe('br')
    const html = zlib.brotliDecompressSync(home.body).toString()
    expect(html).toContain('<html')
    const [script] = firstLoadAssets(html).scripts
    expect(script).toMatch(/^\/assets\/.+\.js$/)
    const asset = await h2(script!)
    expect(asset.status).toBe(200)
    expect(asset.headers['cache-control']).toContain('immutable')
    // /mine renders per visitor through React Router's request listener (never the page cache).
    const mine = await h2('/mine', { headers: { 'accept-encoding': 'br' } })
    expect(mine.status).toBe(200)
    expect(mine.headers['content-encoding']).toBe('br')
    expect(zlib.brotliDecompressSync(mine.body).toString()).toContain('<html')
  })

  it('still answers HTTP/1.1 clients over TLS', async () => {
    const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      https
        .get(`${origin}/api/v3/index`, { rejectUnauthorized: false }, (res) => {
          let body = ''
          res.on('data', (c: Buffer) => (body += c.toString()))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
        })
        .on('error', reject)
    })
    expect(status.status).toBe(200)
    expect((JSON.parse(status.body) as { code: number }).code).toBe(200)
  })
})

describe('TLS configuration', () => {
  const load = (env: Record<string, string>) => () => loadConfig({ APP_ENV: 'test', ...env })

  it('needs both files, readable', () => {
    expect(load({ TLS_CERT_FILE: certFile })).toThrow(/TLS_CERT_FILE and TLS_KEY_FILE: set both, or neither/)
    expect(load({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: path.join(dir, 'missing.pem') })).toThrow(
      /TLS_KEY_FILE: cannot read/,
    )
  })

  it('makes the default public address https', () => {
    expect(
      loadConfig({ APP_ENV: 'test', PORT: '8443', TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile }).publicUrl,
    ).toBe('https://localhost:8443')
    expect(loadConfig({ APP_ENV: 'test', PORT: '8080' }).publicUrl).toBe('http://localhost:8080')
  })
})
