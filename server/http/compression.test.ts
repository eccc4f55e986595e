import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '#tests/support/app.ts'
import { buildDir } from '#tests/support/spawn-server.ts'
import { compressible, registerCompression } from './compression.ts'

const decoders: Record<string, (b: Buffer) => Buffer> = {
  br: (b) => zlib.brotliDecompressSync(b),
  gzip: (b) => zlib.gunzipSync(b),
}

describe('compressed API answers', () => {
  const t = useTestApp()
  const get = (url: string, encoding?: string) =>
    t().app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} })

  it('an answer over 1 KB: Brotli when asked, gzip when asked, identity when not', async () => {
    const plain = await get('/api/openapi.json')
    expect(plain.statusCode).toBe(200)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.rawPayload.length).toBeGreaterThan(1024)
    for (const [asked, expected] of [
      ['gzip, deflate, br', 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await get('/api/openapi.json', asked)
      expect(res.headers['content-encoding']).toBe(expected)
      expect(res.headers.vary).toMatch(/accept-encoding/i)
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3)
      expect(decoders[expected]!(res.rawPayload).toString()).toBe(plain.body)
    }
    expect((await get('/api/openapi.json', 'identity')).headers['content-encoding']).toBeUndefined()
  })

  it('a small answer is not compressed', async () => {
    const res = await get('/api/health', 'br, gzip')
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.length).toBeLessThan(1024)
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(JSON.parse(res.body)).toMatchObject({ code: 200 })
  })
})

describe('what is compressed', () => {
  it('text, JSON, scripts, SVG and playlists; never video segments or raster images', () => {
    for (const type of [
      'application/json; charset=utf-8',
      'text/html; charset=utf-8',
      'text/javascript',
      'text/css',
      'image/svg+xml',
      'application/vnd.apple.mpegurl',
    ])
      expect(compressible(type), type).toBe(true)
    for (const type of ['video/mp2t', 'video/mp4', 'image/jpeg', 'image/png', 'image/webp', 'text/event-stream'])
      expect(compressible(type), type).toBe(false)
  })

  it('an HLS segment of any size goes out as it is', async () => {
    const app = Fastify()
    await registerCompression(app)
    const segment = Buffer.alloc(64 * 1024, 'a') // very compressible bytes: only the type keeps them plain
    app.get('/seg.ts', async (_request, reply) => reply.type('video/mp2t').send(segment))
    app.get('/list.m3u8', async (_request, reply) =>
      reply.type('application/vnd.apple.mpegurl').send('#EXTINF:6.0,\n'.repeat(200)),
    )
    const seg = await app.inject({ url: '/seg.ts', headers: { 'accept-encoding': 'br, gzip' } })
    expect(seg.headers['content-encoding']).toBeUndefined()
    expect(seg.rawPayload.equals(segment)).toBe(true)
    const list = await app.inject({ url: '/list.m3u8', headers: { 'accept-encoding': 'br, gzip' } })
    expect(list.headers['content-encoding']).toBe('br')
    await app.close()
  })
})

describe('pages and built assets', () => {
  if (!fs.existsSync(path.join(buildDir, 'server/index.js')))
    throw new Error(`Run \`npm run build\` first (nothing built in ${buildDir}).`)
  const t = useTestApp({ BUILD_DIR: buildDir }, { web: 'production' })
  const assets = path.join(buildDir, 'client/assets')
  const script = fs.readdirSync(assets).find((f) => f.endsWith('.js') && fs.existsSync(path.join(assets, `${f}.br`)))

  it('a built script is sent precompressed: the .br or .gz written at build time', async () => {
    expect(script, 'npm run build writes .br and .gz next to the assets').toBeDefined()
    const file = path.join(assets, script!)
    for (const [asked, encoding, suffix] of [
      ['br, gzip', 'br', '.br'],
      ['gzip', 'gzip', '.gz'],
    ] as const) {
      const res = await t().app.inject({ url: `/assets/${script}`, headers: { 'accept-encoding': asked } })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-encoding']).toBe(encoding)
      expect(res.headers['content-type']).toMatch(/javascript/)
      expect(res.headers['cache-control']).toContain('immutable')
      expect(res.rawPayload.equals(fs.readFileSync(file + suffix))).toBe(true)
    }
    const plain = await t().app.inject({ url: `/assets/${script}` })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.rawPayload.equals(fs.readFileSync(file))).toBe(true)
  })

  it('a cached public page is compressed, and still the same page from the micro-cache', async () => {
    const first = await t().app.inject({ url: '/', headers: { 'accept-encoding': 'br' } })
    expect(first.statusCode).toBe(200)
    expect(first.headers['content-encoding']).toBe('br')
    // Each answer carries its own CSP nonce (security-headers.ts); the rest of the page is the cached one.
    const samePage = (page: string) => page.replace(/nonce="[^"]*"/g, 'nonce=""')
    const html = zlib.brotliDecompressSync(first.rawPayload).toString()
    expect(html).toMatch(/^<!DOCTYPE html>/i)
    const again = await t().app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } })
    expect(again.headers['content-encoding']).toBe('gzip')
    expect(samePage(zlib.gunzipSync(again.rawPayload).toString())).toBe(samePage(html))
    const plain = await t().app.inject({ url: '/' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(samePage(plain.body)).toBe(samePage(html))
  })

  it('a streamed render (a page not cached) is compressed too, and arrives whole', async () => {
    const plain = await t().app.inject({ url: '/mine' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    for (const [asked, expected] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await t().app.inject({ url: '/mine', headers: { 'accept-encoding': asked } })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-encoding']).toBe(expected)
      expect(res.headers.vary).toMatch(/accept-encoding/i)
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2)
      expect(decoders[expected]!(res.rawPayload).toString()).toMatch(/^<!DOCTYPE html>[\s\S]*<\/html>\s*$/i)
    }
  })

  it('React Router’s route discovery (/__manifest) is compressed', async () => {
    // The build's version, as the browser sends it (React Router answers 204 to another).
    const version = /\/assets\/manifest-(\w+)\.js/.exec((await t().app.inject({ url: '/mine' })).body)?.[1]
    expect(version, 'the manifest version in the page').toBeDefined()
    const paths = encodeURIComponent('/,/boutique,/vip,/ke1,/mine,/course/1001.html')
    const url = `/__manifest?paths=${paths}&version=${version}`
    const plain = await t().app.inject({ url })
    expect(plain.statusCode).toBe(200)
    expect(plain.rawPayload.length).toBeGreaterThan(1024)
    const res = await t().app.inject({ url, headers: { 'accept-encoding': 'br' } })
    expect(res.headers['content-encoding']).toBe('br')
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(plain.body)
  })
})
