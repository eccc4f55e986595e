import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedIfEmpty } from '#server/db/seed.ts'
import { useTestApp } from '#tests/support/app.ts'
import { buildDir } from '#tests/support/spawn-server.ts'

const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-cover-srcset-'))
afterAll(() => fs.rmSync(mediaDir, { recursive: true, force: true }))

/**
 * Issue 11 §4: the learner pages show covers at about a third of their stored width, so the server-rendered pages
 * offer resized copies (srcset) that the app itself answers from the demo's covers.
 */
describe('course covers in the pages', () => {
  const t = useTestApp({ BUILD_DIR: buildDir, MEDIA_DIR: mediaDir }, { web: 'production' })
  beforeAll(async () => {
    await seedIfEmpty(t().database.db, { info: () => {} })
  })

  it('/ and /boutique render every course cover with a srcset of its variants and the size it is shown at', async () => {
    for (const url of ['/', '/boutique']) {
      const html = (await t().app.inject({ url })).body
      const covers = [...html.matchAll(/<img [^>]*src="(\/demo\/courses\/[^"]+)"[^>]*>/g)]
      expect(covers.length, url).toBeGreaterThan(2)
      for (const [tag, src] of covers) {
        expect(tag, url).toContain(`srcSet="/img/240${src} 240w,/img/360${src} 360w`)
        expect(tag, url).toMatch(/sizes="[^"]+"/)
      }
    }
  })

  it('a cover’s variant is answered by the app: WebP at that width, and kept', async () => {
    const html = (await t().app.inject({ url: '/boutique' })).body
    const src = /src="(\/demo\/courses\/[^"]+)"/.exec(html)![1]!
    const res = await t().app.inject({ url: `/img/240${src}` })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/webp')
    const meta = await sharp(res.rawPayload).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 240, 135])
    expect(fs.existsSync(path.join(mediaDir, `variants/240${src}`))).toBe(true)
    expect((await t().app.inject({ url: `/img/250${src}` })).statusCode).toBe(404)
  })

  it('the demo seed’s covers are made ahead at every width (as the first start does)', async () => {
    const src = '/demo/courses/ps-zero.webp'
    expect(await t().app.imageVariants.ensureAll([src, '/demo/courses/no-such-cover.webp'])).toBe(1)
    for (const w of [240, 360, 480, 640, 960])
      expect(fs.existsSync(path.join(mediaDir, `variants/${w}${src}`))).toBe(true)
  })

  it('an uploaded image’s variants are found only while the image is: never read straight from /media/', async () => {
    const image = await sharp({ create: { width: 800, height: 450, channels: 3, background: '#3a7' } })
      .webp()
      .toBuffer()
    fs.mkdirSync(path.join(mediaDir, 'images'), { recursive: true })
    fs.writeFileSync(path.join(mediaDir, 'images/erased.webp'), image)
    expect((await t().app.inject({ url: '/img/360/media/images/erased.webp' })).statusCode).toBe(200)
    expect(fs.existsSync(path.join(mediaDir, 'variants/360/media/images/erased.webp'))).toBe(true)
    expect((await t().app.inject({ url: '/media/variants/360/media/images/erased.webp' })).statusCode).toBe(404)
    // The original deleted (an erased account's photo): its copy, still on disk, is no longer answered.
    fs.rmSync(path.join(mediaDir, 'images/erased.webp'))
    expect((await t().app.inject({ url: '/img/360/media/images/erased.webp' })).statusCode).toBe(404)
  })
})
