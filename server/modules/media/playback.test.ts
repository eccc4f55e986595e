import { execFileSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { videoMedia } from '#server/db/schema/media.ts'
import { startJobWorker } from '#server/jobs/start.ts'
import type { Worker } from '#server/jobs/worker.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeCourse, makeMember, makeVideo, multipartFile } from '#tests/support/media-fixtures.ts'
import { insertEntitlement } from '#server/modules/access/access.repository.ts'

/**
 * The whole pipeline on a real clip: upload → queued job → ffmpeg → encrypted HLS → signed playback, with the
 * preview cut and the key guarded by signature and entitlement.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-media-test-'))
const clip = path.join(dataDir, 'clip.mp4')
let clock = new Date('2026-11-22T08:00:00Z')

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

interface Play {
  master_url: string
  until_second: number | null
  reason: string
  expires_at: number
  duration: number
  poster_url: string | null
}

describe('video upload, transcoding and protected playback', () => {
  const t = useTestApp({ DATA_DIR: dataDir, TRANSCODE_PRESET: 'ultrafast' }, { integrations: { now: () => clock } })
  let worker: Worker | undefined
  let admin: Awaited<ReturnType<typeof makeMember>>
  let member: Awaited<ReturnType<typeof makeMember>>
  let entitled: Awaited<ReturnType<typeof makeMember>>
  let preview: number
  let locked: number
  let course: number

  beforeAll(() => {
    // 14 s of 720p with sound: three 6-second segments (6, 6, 2) in each of 360p and 720p.
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=duration=14:size=1280x720:rate=15',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=14',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      clip,
    ])
  })

  beforeAll(async () => {
    const { db } = t().database
    admin = await makeMember(db, 'admin', clock)
    member = await makeMember(db, 'member', clock)
    entitled = await makeMember(db, 'member', clock)
    course = await makeCourse(db, { priceFen: 19900 })
    preview = await makeVideo(db, course, { freeSeconds: 7, title: '试看 7 秒' })
    locked = await makeVideo(db, course, { title: '付费' })
    await insertEntitlement(db, {
      memberId: entitled.id,
      courseId: course,
      source: 'admin',
      grantedAt: clock,
      expiresAt: null,
    })
  })

  afterAll(async () => {
    await worker?.stop()
  })

  const get = (url: string, headers: Record<string, string> = {}) => t().app.inject({ method: 'GET', url, headers })
  const upload = (videoId: number, data: Buffer, filename: string, headers: Record<string, string> = admin.headers) => {
    const body = multipartFile(data, filename, 'video/mp4')
    return t().app.inject({
      method: 'POST',
      url: `/api/admin/videos/${videoId}/upload`,
      payload: body.payload,
      headers: { ...body.headers, ...headers },
    })
  }
  const storedFiles = (dir: string) =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir, { recursive: true }).filter((f) => fs.statSync(path.join(dir, String(f))).isFile())
      : []

  it('refuses a text file renamed .mp4 with 470 and keeps nothing', async () => {
    const res = await upload(preview, Buffer.from('just some text, not a video at all\n'.repeat(100)), 'lesson.mp4')
    expect(res.json()).toMatchObject({ code: 470 })
    expect(storedFiles(path.join(dataDir, 'media-private', 'sources'))).toEqual([])
  })

  it('refuses a file that only looks like an MP4 (ffprobe finds no video) with 470', async () => {
    const fake = Buffer.concat([
      Buffer.from('\x00\x00\x00\x20ftypisom\x00\x00\x02\x00', 'latin1'),
      crypto.randomBytes(4000),
    ])
    const res = await upload(preview, fake, 'fake.mp4')
    expect(res.json()).toMatchObject({ code: 470, msg: '文件无法解析为视频（没有找到视频画面），请检查文件后重新上传' })
    expect(storedFiles(path.join(dataDir, 'media-private', 'sources'))).toEqual([])
  })

  it('refuses an upload from a member (403) and from an anonymous visitor (301)', async () => {
    const data = fs.readFileSync(clip)
    expect((await upload(preview, data, 'clip.mp4', member.headers)).json()).toMatchObject({ code: 403 })
    expect((await upload(preview, data, 'clip.mp4', {})).json()).toMatchObject({ code: 301 })
  })

  it('answers 474 (no access) or 473 (not ready) before anything plays', async () => {
    expect((await get(`/api/video/play?vid=${locked}`)).json()).toMatchObject({
      code: 474,
      data: { until_second: 0, reason: 'no_access' },
    })
    expect((await get(`/api/video/play?vid=${preview}`)).json()).toMatchObject({ code: 473, data: { status: 'none' } })
    expect((await get('/api/video/play?vid=999999')).json()).toMatchObject({ code: 404 })
  })

  it('takes the upload, queues transcoding, and the worker makes it ready', { timeout: 120_000 }, async () => {
    const res = await upload(preview, fs.readFileSync(clip), 'clip.mp4')
    expect(res.json()).toMatchObject({
      code: 200,
      data: { video_id: preview, status: 'uploaded', playable: false, source_name: 'clip.mp4' },
    })
    expect(res.json<{ data: { source_bytes: number } }>().data.source_bytes).toBe(fs.statSync(clip).size)

    // The job waits in the queue (durable) until a worker runs: the test starts one now, as main.ts does at boot.
    worker = startJobWorker(t().app.services, t().app.log, { pollMs: 50 })
    const seen = new Set<string>()
    const renditionsWhileTranscoding = new Set<string>()
    let media: Record<string, unknown> = {}
    for (const deadline = Date.now() + 100_000; Date.now() < deadline;) {
      const r = await get(`/api/admin/videos/${preview}`, admin.headers)
      media = r.json<{ data: { media: Record<string, unknown> } }>().data.media
      seen.add(String(media.status))
      const each = media.rendition_progress as { name: string; percent: number }[]
      if (media.status === 'transcoding')
        for (const rendition of each) {
          expect(rendition.percent).toBe(media.progress)
          renditionsWhileTranscoding.add(rendition.name)
        }
      if (media.status === 'ready' || media.status === 'failed') break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(media).toMatchObject({ status: 'ready', progress: 100, error: null, playable: true })
    expect(seen.has('transcoding')).toBe(true)
    // Each rendition shows while it is made (once the source is probed), and at 100 when ready.
    expect([...renditionsWhileTranscoding].sort()).toEqual(['360p', '720p'])
    expect(media.rendition_progress).toEqual([
      { name: '360p', height: 360, percent: 100 },
      { name: '720p', height: 720, percent: 100 },
    ])
    expect(media.duration).toBeCloseTo(14, 0)
    expect(media.renditions).toEqual([
      { name: '360p', width: 640, height: 360, bandwidth: expect.any(Number) as number },
      { name: '720p', width: 1280, height: 720, bandwidth: expect.any(Number) as number },
    ])
    const poster = await get(String(media.poster_url))
    expect(poster.statusCode).toBe(200)
    expect(poster.headers['content-type']).toBe('image/webp')
    const video = (await get(`/api/admin/videos/${preview}`, admin.headers)).json<{
      data: { duration_seconds: number }
    }>().data
    expect(video.duration_seconds).toBe(14)
    // Nothing of the video is in the public folder except its poster.
    expect(storedFiles(path.join(dataDir, 'media')).every((f) => String(f).startsWith('posters'))).toBe(true)
  })

  async function play(videoId: number, headers: Record<string, string> = {}) {
    const res = await get(`/api/video/play?vid=${videoId}`, headers)
    expect(res.json()).toMatchObject({ code: 200 })
    return res.json<{ data: Play }>().data
  }

  async function playlists(videoId: number, headers: Record<string, string> = {}) {
    const p = await play(videoId, headers)
    const master = await get(p.master_url)
    expect(master.statusCode).toBe(200)
    expect(master.headers['content-type']).toBe('application/vnd.apple.mpegurl')
    const variants = master.body.split('\n').filter((l) => l.startsWith('/media/hls/'))
    const variant = await get(variants[0]!)
    expect(variant.statusCode).toBe(200)
    return { play: p, master: master.body, variants, variant: variant.body }
  }

  const segmentsOf = (playlist: string) => playlist.split('\n').filter((l) => l.startsWith('/media/hls/'))
  const keyUrlOf = (playlist: string) => /#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)"/.exec(playlist)![1]!
  const ivOf = (playlist: string) => Buffer.from(/IV=0x([0-9a-f]{32})/i.exec(playlist)![1]!, 'hex')

  it('gives an anonymous visitor a preview that ends at free_seconds', async () => {
    const { play: p, master, variants, variant } = await playlists(preview)
    expect(p).toMatchObject({
      until_second: 7,
      reason: 'preview',
      expires_at: Math.floor(clock.getTime() / 1000) + 7200,
    })
    expect(master).toContain('RESOLUTION=640x360')
    expect(master).toContain('RESOLUTION=1280x720')
    expect(variants).toHaveLength(2)
    expect(
      variants.every((v) => /^\/media\/hls\/\d+\/(360p|720p)\/index\.m3u8\?mid=0&exp=\d+&lim=7&sig=[\w-]+$/.test(v)),
    ).toBe(true)
    // Segments start at 0, 6 and 12: only the two that start before second 7 are listed, then the playlist ends.
    expect(segmentsOf(variant).map((s) => s.split('?')[0]!.split('/').pop())).toEqual(['seg_00000.ts', 'seg_00001.ts'])
    expect(variant.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true)
    expect(variant).toContain('#EXT-X-PLAYLIST-TYPE:VOD')
    expect(keyUrlOf(variant)).toMatch(new RegExp(`^/api/video/key\\?vid=${preview}&mid=0&exp=\\d+&lim=7&sig=`))
  })

  it('refuses a segment beyond the preview, even asked for directly', async () => {
    const { variant } = await playlists(preview)
    const third = segmentsOf(variant)[0]!.replace('seg_00000.ts', 'seg_00002.ts')
    const res = await get(third)
    expect(res.statusCode).toBe(403)
    expect(res.json()).toEqual({ code: 403, msg: '试看已结束，购买课程后可观看完整视频', data: {} })
  })

  it('refuses a preview URL whose limit was removed or raised', async () => {
    const { variant } = await playlists(preview)
    const first = segmentsOf(variant)[0]!
    expect((await get(first.replace('&lim=7', ''))).statusCode).toBe(403)
    expect((await get(first.replace('&lim=7', '&lim=999'))).json()).toMatchObject({ code: 403, msg: '播放链接无效' })
  })

  it('lists every segment for an entitled member, and the rendition playlists differ per member', async () => {
    const { play: p, variant, variants } = await playlists(preview, entitled.headers)
    expect(p).toMatchObject({ until_second: null, reason: 'entitled' })
    expect(variants[0]).toContain(`mid=${entitled.id}&`)
    expect(variants[0]).not.toContain('lim=')
    expect(segmentsOf(variant)).toHaveLength(3)
    const last = await get(segmentsOf(variant)[2]!)
    expect(last.statusCode).toBe(200)
    expect(last.headers['content-type']).toBe('video/mp2t')
  })

  it('serves segments that are encrypted and decrypt with the key to MPEG-TS', async () => {
    const { variant } = await playlists(preview, entitled.headers)
    const segment = await get(segmentsOf(variant)[0]!)
    expect(segment.statusCode).toBe(200)
    const raw = segment.rawPayload
    expect(raw.length % 16).toBe(0)
    const syncBytes = (b: Buffer) => [0, 188, 376, 564].filter((i) => b[i] === 0x47).length
    expect(syncBytes(raw)).toBeLessThan(4)

    const keyRes = await get(keyUrlOf(variant))
    expect(keyRes.statusCode).toBe(200)
    expect(keyRes.headers['content-type']).toBe('application/octet-stream')
    expect(keyRes.headers['cache-control']).toBe('private, no-store')
    expect(keyRes.rawPayload).toHaveLength(16)

    const decipher = crypto.createDecipheriv('aes-128-cbc', keyRes.rawPayload, ivOf(variant))
    const plain = Buffer.concat([decipher.update(raw), decipher.final()])
    expect(plain[0]).toBe(0x47)
    expect(syncBytes(plain)).toBe(4)
    expect(plain.length % 188).toBe(0)
  })

  it('gives the key to a preview viewer too, since the first segments need it', async () => {
    const { variant } = await playlists(preview)
    const res = await get(keyUrlOf(variant))
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload).toHaveLength(16)
  })

  it('refuses the key to an anonymous request without a signature', async () => {
    for (const url of [
      `/api/video/key?vid=${preview}`,
      `/api/video/key?vid=${preview}&mid=0&exp=9999999999&sig=forged`,
    ]) {
      const res = await get(url)
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({ code: 403, msg: '播放链接无效', data: {} })
    }
  })

  it('refuses the key, playlists and segments once the signed URL has expired', async () => {
    const { variant, play: p } = await playlists(preview, entitled.headers)
    const keyUrl = keyUrlOf(variant)
    const segment = segmentsOf(variant)[0]!
    expect((await get(keyUrl)).statusCode).toBe(200)
    const before = clock
    clock = new Date((p.expires_at + 1) * 1000)
    try {
      for (const url of [keyUrl, segment, p.master_url]) {
        const res = await get(url)
        expect(res.statusCode).toBe(403)
        expect(res.json()).toEqual({ code: 403, msg: '播放链接已过期，请重新打开视频', data: {} })
      }
    } finally {
      clock = before
    }
  })

  it('stops giving the key when the entitlement is revoked, even on a URL still valid', async () => {
    const other = await makeMember(t().database.db, 'member', clock)
    const grant = await t().app.inject({
      method: 'POST',
      url: '/api/admin/entitlements',
      headers: admin.headers,
      payload: { member_id: other.id, course_id: course },
    })
    expect(grant.json()).toMatchObject({ code: 200, data: { active: true, source: 'admin' } })
    const { variant, variants } = await playlists(preview, other.headers)
    expect(segmentsOf(variant)).toHaveLength(3)
    const id = grant.json<{ data: { id: number } }>().data.id
    expect(
      (
        await t().app.inject({ method: 'POST', url: `/api/admin/entitlements/${id}/revoke`, headers: admin.headers })
      ).json(),
    ).toMatchObject({
      code: 200,
      data: { active: false },
    })
    // The same, still unexpired URL now gives the preview: the playlist is cut again.
    const again = await get(variants[0]!)
    expect(segmentsOf(again.body)).toHaveLength(2)
    expect(again.body).toContain('&lim=7&')
  })

  it('refuses the key to a member without any access to the video', async () => {
    const { variant } = await playlists(preview, entitled.headers)
    // The same signature cannot be moved to another video.
    const moved = keyUrlOf(variant).replace(`vid=${preview}`, `vid=${locked}`)
    expect((await get(moved)).json()).toMatchObject({ code: 403, msg: '播放链接无效' })
    expect((await get(`/api/video/play?vid=${locked}`, member.headers)).json()).toMatchObject({ code: 474 })
  })

  it('shows a failed transcoding with its reason, and can queue it again', { timeout: 60_000 }, async () => {
    await worker?.stop()
    const res = await upload(locked, fs.readFileSync(clip), 'lost.mp4')
    expect(res.json()).toMatchObject({ code: 200, data: { status: 'uploaded' } })
    // The source disappears before the worker gets to it (a disk emptied by hand, say).
    fs.rmSync(path.join(dataDir, 'media-private', 'sources', String(locked)), { recursive: true })
    worker = startJobWorker(t().app.services, t().app.log, { pollMs: 50 })
    const failed = async () => {
      for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
        const media = (await get(`/api/admin/videos/${locked}`, admin.headers)).json<{
          data: { media: { status: string } }
        }>().data.media
        if (media.status === 'failed') return media
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      throw new Error('never failed')
    }
    expect(await failed()).toMatchObject({
      status: 'failed',
      error: '转码失败：源文件不见了，请重新上传',
      playable: false,
    })
    const again = await t().app.inject({
      method: 'POST',
      url: `/api/admin/videos/${locked}/transcode`,
      headers: admin.headers,
    })
    // Queued again with the error cleared; the running worker may already have taken it up.
    const queued = again.json<{ code: number; data: { status: string; error: string | null } }>()
    expect(queued.code).toBe(200)
    expect(queued.data.error).toBeNull()
    expect(['uploaded', 'transcoding']).toContain(queued.data.status)
    expect(await failed()).toMatchObject({ status: 'failed' })
  })

  it('refuses a second upload while the video is transcoding and accepts one after', async () => {
    const { db } = t().database
    await db.update(videoMedia).set({ status: 'transcoding' }).where(eq(videoMedia.videoId, preview))
    expect((await upload(preview, fs.readFileSync(clip), 'again.mp4')).json()).toMatchObject({ code: 472 })
    await db.update(videoMedia).set({ status: 'ready' }).where(eq(videoMedia.videoId, preview))
  })
})
