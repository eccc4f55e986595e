import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { imageSrcSet } from '#shared/image-variants.ts'
import { createImageVariants, imageVariantRoutes, variantKey } from './image-variants.ts'
import { localStorage } from './local.ts'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-variants-test-'))
const webRoot = path.join(root, 'web')
const store = localStorage({ root: path.join(root, 'media'), publicPrefix: '/media/' })
let app: FastifyInstance

/** A 16:9 test card: a red left half and a blue right half, so a wrong crop or a squashed resize shows. */
const card = (width: number, format: 'webp' | 'png' = 'webp') => {
  const height = Math.round((width * 9) / 16)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width / 2}" height="${height}" fill="#f00"/><rect x="${width / 2}" width="${width / 2}" height="${height}" fill="#00f"/></svg>`
  return sharp(Buffer.from(svg))[format]().toBuffer()
}

beforeAll(async () => {
  fs.mkdirSync(path.join(webRoot, 'demo/courses'), { recursive: true })
  fs.writeFileSync(path.join(webRoot, 'demo/courses/ps.webp'), await card(640))
  fs.writeFileSync(path.join(webRoot, 'demo/courses/broken.webp'), 'not an image at all')
  fs.writeFileSync(path.join(root, 'secret.png'), await card(320, 'png'))
  // In the web root but outside /demo/: not one of the images variants are made of.
  fs.writeFileSync(path.join(webRoot, 'icon.webp'), await card(320))
  await store.put('images/2026/0123abcd.webp', await card(1600))
  app = Fastify()
  await app.register(imageVariantRoutes, { variants: createImageVariants({ store, webRoot }), store })
})
afterAll(async () => {
  await app.close()
  fs.rmSync(root, { recursive: true, force: true })
})

const get = (url: string) => app.inject({ method: 'GET', url })

async function sizeOf(body: Buffer) {
  const meta = await sharp(body).metadata()
  return { format: meta.format, width: meta.width, height: meta.height }
}

describe('resized images (/img/<width>/<path>)', () => {
  it('a demo cover at a listed width: WebP, that wide, same aspect and crop, kept in the public store', async () => {
    const res = await get('/img/240/demo/courses/ps.webp')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/webp')
    expect(res.headers['cache-control']).toBe('public, max-age=3600')
    expect(await sizeOf(res.rawPayload)).toEqual({ format: 'webp', width: 240, height: 135 })
    // Left half red, right half blue: resized, not cropped or squashed.
    const { data } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true })
    const px = (x: number, y: number) => [...data.subarray((y * 240 + x) * 3, (y * 240 + x) * 3 + 3)]
    expect(px(20, 60)[0]).toBeGreaterThan(200)
    expect(px(220, 60)[2]).toBeGreaterThan(200)
    const kept = await store.stat(variantKey(240, '/demo/courses/ps.webp'))
    expect(kept?.size).toBe(res.rawPayload.length)
  })

  it('makes a variant once, and again when the original is newer', async () => {
    const key = variantKey(360, '/demo/courses/ps.webp')
    await get('/img/360/demo/courses/ps.webp')
    const first = (await store.stat(key))!.modifiedAt
    await get('/img/360/demo/courses/ps.webp')
    expect((await store.stat(key))!.modifiedAt).toEqual(first)
    // The demo images are redrawn under the same name: the kept copy follows.
    const file = path.join(webRoot, 'demo/courses/ps.webp')
    fs.writeFileSync(file, await card(480))
    const later = new Date(first.getTime() + 60_000)
    fs.utimesSync(file, later, later)
    const res = await get('/img/360/demo/courses/ps.webp')
    expect((await store.stat(key))!.modifiedAt.getTime()).toBeGreaterThan(first.getTime())
    expect(await sizeOf(res.rawPayload)).toMatchObject({ width: 360 })
  })

  it('an operator’s image from the media store, never enlarged, kept for good like its original', async () => {
    const res = await get('/img/480/media/images/2026/0123abcd.webp')
    expect(res.statusCode).toBe(200)
    expect(await sizeOf(res.rawPayload)).toEqual({ format: 'webp', width: 480, height: 270 })
    expect(res.headers['cache-control']).toContain('immutable')
    const small = await get('/img/960/demo/courses/ps.webp')
    expect(await sizeOf(small.rawPayload)).toMatchObject({ width: 480 })
  })

  it('refuses other widths, other places, variants of variants and what is not an image', async () => {
    for (const url of [
      '/img/300/demo/courses/ps.webp',
      '/img/0240/demo/courses/ps.webp',
      '/img/abc/demo/courses/ps.webp',
      '/img/240/demo/courses/missing.webp',
      '/img/240/demo/courses/broken.webp',
      '/img/240/demo/../secret.png',
      '/img/240/demo/../icon.webp',
      '/img/240/demo/courses/../../icon.webp',
      '/img/240/demo/%2e%2e/secret.png',
      '/img/240/demo/..%2fsecret.png',
      '/img/240/demo//courses/ps.webp',
      '/img/240/etc/passwd',
      '/img/240/media/variants/240/demo/courses/ps.webp',
      '/img/240/media/images/2026/0123abcd.txt',
      '/img/240/https://example.com/a.webp',
    ]) {
      const res = await get(url)
      expect(res.statusCode, url).toBe(404)
      expect(res.headers['content-type'], url).not.toBe('image/webp')
    }
  })
})

describe('what variants are made of', () => {
  it('only images under /demo/ and in the media store, never a path that climbs out or a kept variant', async () => {
    const variants = createImageVariants({ store, webRoot })
    expect(await variants.ensure(240, '/demo/courses/ps.webp')).toMatchObject({
      key: 'variants/240/demo/courses/ps.webp',
    })
    for (const src of [
      '/demo/../icon.webp',
      '/demo/courses/../../icon.webp',
      '/demo/./courses/ps.webp',
      '/media/../web/icon.webp',
      '/media/variants/240/demo/courses/ps.webp',
      '/icon.webp',
    ])
      expect(await variants.ensure(240, src), src).toBeNull()
  })
})

describe('srcset of a cover', () => {
  it('every variant width for the site’s images; nothing for other URLs', () => {
    expect(imageSrcSet('/demo/courses/ps.webp')).toBe(
      '/img/240/demo/courses/ps.webp 240w,/img/360/demo/courses/ps.webp 360w,/img/480/demo/courses/ps.webp 480w,' +
        '/img/640/demo/courses/ps.webp 640w,/img/960/demo/courses/ps.webp 960w',
    )
    expect(imageSrcSet('/media/images/2026/0123abcd.webp')).toContain('/img/240/media/images/2026/0123abcd.webp 240w')
    for (const other of ['https://cdn.example.com/images/a.webp', '/media/a.gif', '/other/a.webp', ''])
      expect(imageSrcSet(other), other).toBeUndefined()
  })

  it('a cover shown at one width lists the widths up to the first that covers it at 3×', () => {
    const widths = (shownAt: number) => imageSrcSet('/demo/courses/ps.webp', shownAt)?.match(/\d+w/g)
    expect(widths(128)).toEqual(['240w', '360w', '480w'])
    expect(widths(104)).toEqual(['240w', '360w'])
    expect(widths(80)).toEqual(['240w'])
    expect(widths(320)).toEqual(['240w', '360w', '480w', '640w', '960w'])
    expect(widths(500)).toEqual(['240w', '360w', '480w', '640w', '960w'])
    expect(imageSrcSet('https://cdn.example.com/a.webp', 128)).toBeUndefined()
  })
})
