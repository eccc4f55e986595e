import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { videos } from '#server/db/schema/catalogue.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeCourse, makeVideo } from '#tests/support/media-fixtures.ts'
import { attachDemoMedia, readDemoManifest } from './demo-media.ts'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-demo-media-test-'))
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))
const log = { info: () => {}, warn: () => {} }

describe('attachDemoMedia', () => {
  const t = useTestApp({ DATA_DIR: dataDir })

  it('ships small committed clips: a long free one, a preview one and one for the rest', () => {
    const manifest = readDemoManifest()!
    expect(manifest.clips.map((c) => c.use).sort()).toEqual(['free', 'other', 'preview'])
    expect(manifest.clips.find((c) => c.use === 'free')!.duration).toBeGreaterThanOrEqual(30)
    const bytes = fs
      .readdirSync(path.join(import.meta.dirname, '../../db/demo-media'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .reduce((sum, e) => sum + fs.statSync(path.join(e.parentPath, e.name)).size, 0)
    expect(bytes).toBeLessThan(5 * 1024 * 1024)
  })

  it('makes a free course, a paid course with a preview and a VIP-free course playable', async () => {
    const { db } = t().database
    const free = await makeCourse(db, { isFree: true, priceFen: 0 })
    const paid = await makeCourse(db, { priceFen: 9900 })
    const vip = await makeCourse(db, { priceFen: 19900, vipFree: true })
    const freeVideo = await makeVideo(db, free)
    const previewVideo = await makeVideo(db, paid, { freeSeconds: 120 })
    const paidVideo = await makeVideo(db, paid)
    const vipVideo = await makeVideo(db, vip, { isFree: true })

    expect(await attachDemoMedia(db, t().app.services.storage, log)).toBe(4)
    expect(await attachDemoMedia(db, t().app.services.storage, log)).toBe(0)

    const rows = await db.select().from(videos)
    const row = (id: number) => rows.find((r) => r.id === id)!
    expect(row(freeVideo).durationSeconds).toBe(36)
    expect(row(previewVideo)).toMatchObject({ durationSeconds: 20, freeSeconds: 10 })
    expect(row(paidVideo)).toMatchObject({ durationSeconds: 20, freeSeconds: 0 })

    const play = async (vid: number) =>
      (await t().app.inject({ method: 'GET', url: `/api/video/play?vid=${vid}` })).json<{
        code: number
        data: { master_url: string; until_second: number | null }
      }>()
    expect((await play(paidVideo)).code).toBe(474)
    expect((await play(previewVideo)).data.until_second).toBe(10)
    expect((await play(vipVideo)).data.until_second).toBeNull()

    const { master_url } = (await play(freeVideo)).data
    const master = await t().app.inject({ method: 'GET', url: master_url })
    const variantUrl = master.body.split('\n').find((l) => l.startsWith('/media/hls/'))!
    const variant = (await t().app.inject({ method: 'GET', url: variantUrl })).body
    const segments = variant.split('\n').filter((l) => l.startsWith('/media/hls/'))
    expect(segments).toHaveLength(6)
    const key = (await t().app.inject({ method: 'GET', url: /URI="([^"]+)"/.exec(variant)![1]! })).rawPayload
    const iv = Buffer.from(/IV=0x([0-9a-f]{32})/i.exec(variant)![1]!, 'hex')
    const segment = (await t().app.inject({ method: 'GET', url: segments[0]! })).rawPayload
    const decipher = crypto.createDecipheriv('aes-128-cbc', key, iv)
    const plain = Buffer.concat([decipher.update(segment), decipher.final()])
    expect(plain[0]).toBe(0x47)
    const poster = (await t().app.inject({ method: 'GET', url: `/api/video/play?vid=${freeVideo}` })).json<{
      data: { poster_url: string }
    }>().data.poster_url
    expect((await t().app.inject({ method: 'GET', url: poster })).statusCode).toBe(200)

    // Videos the seed did not make keep no media: the function only ever fills gaps.
    const later = await makeVideo(db, paid)
    expect((await db.select().from(videos).where(eq(videos.id, later)))[0]!.durationSeconds).toBe(0)
  })
})
