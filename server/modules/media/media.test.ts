import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { uploads } from '#server/db/schema/media.ts'
import { signIn } from '#server/modules/auth/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { multipartFile } from './testing.ts'

type Body<T = Record<string, unknown>> = { code: number; msg: string; data: T }

const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-media-'))
afterAll(() => fs.rmSync(mediaDir, { recursive: true, force: true }))

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3a7bd5' } })

describe('POST /api/uploadImage', () => {
  const t = useTestApp({ MEDIA_DIR: mediaDir })
  let token = ''
  const upload = async (buffer: Buffer, options?: Parameters<typeof multipartFile>[1]) => {
    token ||= (await signIn(t().app)).token
    const { payload, headers } = multipartFile(buffer, options)
    return t().app.inject({
      method: 'POST',
      url: '/api/uploadImage',
      headers: { ...headers, 'zxb-token': token },
      payload,
    })
  }

  it('re-encodes a JPEG to WebP, applies its orientation and strips its metadata', async () => {
    const jpeg = await solid(200, 100)
      .jpeg()
      .withExif({ IFD0: { Copyright: 'secret-owner', ImageDescription: 'GPS 31.2,121.4' } })
      .withMetadata({ orientation: 6 })
      .toBuffer()
    expect((await sharp(jpeg).metadata()).exif).toBeDefined()

    const res = await upload(jpeg)
    const body = res.json<Body<{ url: string; width: number; height: number }>>()
    expect(body.code).toBe(200)
    expect(body.data.url).toMatch(/^\/media\/uploads\/\d{4}\/[0-9a-f]{32}\.webp$/)
    expect(body.data).toMatchObject({ width: 100, height: 200 })

    const stored = fs.readFileSync(path.join(mediaDir, body.data.url.replace('/media/', '')))
    const meta = await sharp(stored).metadata()
    expect(meta).toMatchObject({ format: 'webp', width: 100, height: 200 })
    expect(meta.exif).toBeUndefined()
    expect(meta.orientation).toBeUndefined()
    expect(stored.includes('secret-owner')).toBe(false)

    const [row] = await t()
      .database.db.select()
      .from(uploads)
      .where(eq(uploads.path, body.data.url.replace('/media/', '')))
    expect(row).toMatchObject({ width: 100, height: 200, bytes: stored.length })

    const served = await t().app.inject({ method: 'GET', url: body.data.url })
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/webp')
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(served.headers['x-content-type-options']).toBe('nosniff')
    expect(served.rawPayload.equals(stored)).toBe(true)
  })

  it('accepts PNG and WebP, recognised by content whatever the declared type', async () => {
    const png = await solid(64, 64).png().toBuffer()
    const webp = await solid(64, 64).webp().toBuffer()
    expect((await upload(png, { filename: 'a.jpg', contentType: 'image/jpeg' })).json<Body>().code).toBe(200)
    expect((await upload(webp, { filename: 'b.txt', contentType: 'text/plain' })).json<Body>().code).toBe(200)
  })

  it('scales a large image down to 1024 px on the longer side', async () => {
    const res = await upload(await solid(3000, 2000).jpeg().toBuffer())
    expect(res.json<Body>().data).toMatchObject({ width: 1024, height: 683 })
  })

  it.each([
    ['a GIF', () => solid(10, 10).gif().toBuffer()],
    ['a TIFF', () => solid(10, 10).tiff().toBuffer()],
    [
      'an SVG',
      async () =>
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
        ),
    ],
    ['a text file', async () => Buffer.from('hello, this is not an image')],
    ['a truncated JPEG', async () => (await solid(300, 300).jpeg().toBuffer()).subarray(0, 400)],
  ])('refuses %s with 450', async (_name, make) => {
    const res = await upload(await make(), { filename: 'x.jpg', contentType: 'image/jpeg' })
    expect(res.json()).toEqual({ code: 450, msg: '图片无法识别，请上传 JPG、PNG 或 WebP 图片', data: {} })
  })

  it('refuses a file over 5 MB with 451', async () => {
    const big = Buffer.concat([await solid(10, 10).jpeg().toBuffer(), Buffer.alloc(5 * 1024 * 1024)])
    const res = await upload(big)
    expect(res.json()).toEqual({ code: 451, msg: '图片不能超过 5 MB 或 2500 万像素', data: {} })
  })

  it('refuses an image over 25 megapixels with 451 before decoding it', async () => {
    const png = await sharp({ create: { width: 5001, height: 5001, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer()
    expect(png.length).toBeLessThan(5 * 1024 * 1024)
    expect((await upload(png)).json<Body>().code).toBe(451)
  })

  it('wants the part named "file" (400)', async () => {
    const res = await upload(await solid(10, 10).png().toBuffer(), { field: 'image' })
    expect(res.statusCode).toBe(400)
    expect(res.json<Body>().msg).toBe('请选择要上传的文件')
  })

  it('wants a multipart body (400)', async () => {
    token ||= (await signIn(t().app)).token
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/uploadImage',
      headers: { 'zxb-token': token },
      payload: { file: 'x' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json<Body>().msg).toContain('multipart/form-data')
  })

  it('needs a signed-in member (301)', async () => {
    const { payload, headers } = multipartFile(await solid(10, 10).png().toBuffer())
    const res = await t().app.inject({ method: 'POST', url: '/api/uploadImage', headers, payload })
    expect(res.json<Body>().code).toBe(301)
  })
})

describe('GET /media/*', () => {
  const t = useTestApp({ MEDIA_DIR: mediaDir })

  it('answers 404 with the envelope for a missing file', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/media/uploads/2024/nothing.webp' })
    expect(res.statusCode).toBe(404)
    expect(res.json<Body>().code).toBe(404)
  })

  it('never serves files outside the media folder', async () => {
    for (const url of [
      '/media/../package.json',
      '/media/..%2f..%2fpackage.json',
      '/media/%2e%2e/%2e%2e/package.json',
    ]) {
      const res = await t().app.inject({ method: 'GET', url })
      expect(res.statusCode, url).not.toBe(200)
      expect(res.body).not.toContain('"name": "zixue"')
    }
  })
})
