import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ListObjectsV2Command } from '@aws-sdk/client-s3'
import { and, eq, inArray } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '#server/app.ts'
import { jobs } from '#server/db/schema/jobs.ts'
import { loadConfig } from '#server/config.ts'
import { createS3Client } from '#server/integrations/storage/s3.ts'
import { startJobWorker } from '#server/jobs/start.ts'
import type { Worker } from '#server/jobs/worker.ts'
import { insertEntitlement } from '#server/modules/access/access.repository.ts'
import { signIn } from '#server/modules/auth/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeTestClip } from '#tests/support/clip.ts'
import { makeCourse, makeMember, makeVideo, multipartFile } from '#tests/support/media-fixtures.ts'
import { S3_PRIVATE_BUCKET, S3_PUBLIC_BUCKET, startTestS3 } from '#tests/support/s3.ts'
import { multipartFile as imagePart } from './testing.ts'

/**
 * The media pipeline with STORAGE=s3 against a real S3-protocol server: images and posters in the public bucket,
 * sources and HLS in the private one, transcoding from and to the buckets, playback only through signed URLs, and
 * replaced media deleted from the buckets. Nothing lands in the data folder.
 */
const s3 = await startTestS3()
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-s3-media-'))
const clip = path.join(os.tmpdir(), `zixue-s3-clip-${process.pid}.mp4`)
afterAll(async () => {
  await s3.stop()
  fs.rmSync(dataDir, { recursive: true, force: true })
  fs.rmSync(clip, { force: true })
})

const env = { ...s3.env, DATA_DIR: dataDir, TRANSCODE_PRESET: 'ultrafast' as const }
const client = createS3Client({
  endpoint: s3.endpoint,
  region: 'us-east-1',
  forcePathStyle: true,
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
})
const keysIn = async (bucket: string, prefix = '') =>
  ((await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }))).Contents ?? []).map((o) => o.Key!)
const filesUnder = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String) : [])

interface Media {
  status: string
  poster_url: string | null
}

describe('media on S3-compatible storage', () => {
  const t = useTestApp(env)
  let worker: Worker | undefined
  let admin: Awaited<ReturnType<typeof makeMember>>
  let entitled: Awaited<ReturnType<typeof makeMember>>
  let video: number

  beforeAll(async () => {
    makeTestClip(clip, 8)
    const { db } = t().database
    admin = await makeMember(db, 'admin')
    entitled = await makeMember(db, 'member')
    const course = await makeCourse(db, { priceFen: 9900 })
    video = await makeVideo(db, course, { freeSeconds: 6 })
    await insertEntitlement(db, {
      memberId: entitled.id,
      courseId: course,
      source: 'admin',
      grantedAt: new Date(),
      expiresAt: null,
    })
    worker = startJobWorker(t().app.services, t().app.log, { pollMs: 50 })
  })
  afterAll(async () => {
    await worker?.stop()
  })

  const get = (url: string, headers: Record<string, string> = {}) => t().app.inject({ method: 'GET', url, headers })
  const transcodeJobPending = async () =>
    (
      await t()
        .database.db.select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.singletonKey, `transcode:${video}`), inArray(jobs.status, ['queued', 'running'])))
    ).length > 0
  async function uploadAndTranscode() {
    const body = multipartFile(fs.readFileSync(clip), 'clip.mp4', 'video/mp4')
    const res = await t().app.inject({
      method: 'POST',
      url: `/api/admin/videos/${video}/upload`,
      payload: body.payload,
      headers: { ...body.headers, ...admin.headers },
    })
    // The answer is the media's state when it is sent: queued, or already transcoding when the running worker
    // claimed the job first (it polls every 50 ms). Either way it must end ready (checked below).
    const answer = res.json<{ code: number; data: { status: string } }>()
    expect(answer.code).toBe(200)
    expect(['uploaded', 'transcoding']).toContain(answer.data.status)
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      const media = (await get(`/api/admin/videos/${video}`, admin.headers)).json<{ data: { media: Media } }>().data
        .media
      // The job ends after the media is ready: it then removes the output the new one replaced. Wait for that too.
      if ((media.status === 'ready' || media.status === 'failed') && !(await transcodeJobPending())) return media
      await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error('transcoding did not finish')
  }

  it('keeps an uploaded image in the public bucket and serves it at /media/ from there', async () => {
    const { token } = await signIn(t().app)
    const image = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#123456' } })
      .png()
      .toBuffer()
    const part = imagePart(image, { filename: 'a.png', contentType: 'image/png' })
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/uploadImage',
      headers: { ...part.headers, 'zxb-token': token },
      payload: part.payload,
    })
    const url = res.json<{ data: { url: string } }>().data.url
    expect(url).toMatch(/^\/media\/uploads\/\d{4}\/[0-9a-f]{32}\.webp$/)
    expect(await keysIn(S3_PUBLIC_BUCKET, 'uploads/')).toEqual([url.replace('/media/', '')])
    const served = await get(url)
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/webp')
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect((await sharp(served.rawPayload).metadata()).format).toBe('webp')
    expect((await get('/media/uploads/2026/none.webp')).statusCode).toBe(404)
    expect((await get('/media/../etc/passwd')).statusCode).toBe(404)
  })

  it(
    'transcodes from the private bucket into it, and plays only through signed URLs',
    { timeout: 90_000 },
    async () => {
      const media = await uploadAndTranscode()
      expect(media.status).toBe('ready')
      const privateKeys = await keysIn(S3_PRIVATE_BUCKET)
      expect(privateKeys.filter((k) => k.startsWith('sources/'))).toHaveLength(1)
      expect(privateKeys).toContain(privateKeys.find((k) => /^hls\/\d+\/[0-9a-f]{8}\/master\.m3u8$/.test(k)))
      expect(privateKeys.some((k) => /\/360p\/seg_00000\.ts$/.test(k))).toBe(true)
      expect((await keysIn(S3_PUBLIC_BUCKET)).filter((k) => !k.startsWith('uploads/'))).toEqual([
        media.poster_url!.replace('/media/', ''),
      ])
      expect((await get(media.poster_url!)).headers['content-type']).toBe('image/webp')
      // Nothing of the media on this machine: the scratch folder is gone and nothing else was written.
      expect(filesUnder(path.join(dataDir, 'media-private'))).toEqual([])
      expect(filesUnder(path.join(dataDir, 'work'))).toEqual([])

      const play = (await get(`/api/video/play?vid=${video}`, entitled.headers)).json<{
        data: { master_url: string }
      }>().data
      const master = await get(play.master_url)
      const variant = await get(master.body.split('\n').find((l) => l.startsWith('/media/hls/'))!)
      for (const body of [JSON.stringify(play), master.body, variant.body]) expect(body).not.toContain(s3.endpoint)
      const segments = variant.body.split('\n').filter((l) => l.startsWith('/media/hls/'))
      expect(segments).toHaveLength(2)
      const segment = await get(segments[0]!)
      expect(segment.statusCode).toBe(200)
      expect(segment.headers['content-type']).toBe('video/mp2t')
      const keyUrl = /URI="([^"]+)"/.exec(variant.body)![1]!
      const key = (await get(keyUrl)).rawPayload
      const iv = Buffer.from(/IV=0x([0-9a-f]{32})/i.exec(variant.body)![1]!, 'hex')
      const decipher = crypto.createDecipheriv('aes-128-cbc', key, iv)
      expect(Buffer.concat([decipher.update(segment.rawPayload), decipher.final()])[0]).toBe(0x47)
      expect((await get(segments[0]!.replace(/sig=[^&]+/, 'sig=forged'))).statusCode).toBe(403)
    },
  )

  it('hands out short-lived presigned segment URLs instead with S3_SEGMENT_REDIRECT, same checks first', async () => {
    const config = loadConfig({
      APP_ENV: 'test',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      ...env,
      S3_SEGMENT_REDIRECT: 'true',
    })
    // A second instance on the same database and buckets.
    const other = await buildApp(config, { database: t().database, logger: false })
    try {
      const anonymous = (await other.inject({ method: 'GET', url: `/api/video/play?vid=${video}` })).json<{
        data: { master_url: string }
      }>().data
      const master = await other.inject({ method: 'GET', url: anonymous.master_url })
      const rendition = master.body.split('\n').find((l) => l.startsWith('/media/hls/'))!
      const variant = (await other.inject({ method: 'GET', url: rendition })).body
      const [first] = variant.split('\n').filter((l) => l.startsWith('/media/hls/'))
      const res = await other.inject({ method: 'GET', url: first! })
      expect(res.statusCode).toBe(302)
      const location = new URL(res.headers.location!)
      expect(location.origin).toBe(s3.endpoint)
      expect(location.pathname).toMatch(
        new RegExp(`^/${S3_PRIVATE_BUCKET}/hls/${video}/[0-9a-f]{8}/360p/seg_00000\\.ts$`),
      )
      expect(Number(location.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(120)
      const bytes = Buffer.from(await (await fetch(location)).arrayBuffer())
      expect(bytes.equals((await get(first!)).rawPayload)).toBe(true)
      // The preview ends at 6 s: the second segment is refused before any URL is made.
      const beyond = first!.replace('seg_00000.ts', 'seg_00001.ts')
      expect((await other.inject({ method: 'GET', url: beyond })).statusCode).toBe(403)
    } finally {
      await other.close()
    }
  })

  it('deletes the replaced source, HLS output and poster from the buckets', { timeout: 90_000 }, async () => {
    const before = await keysIn(S3_PRIVATE_BUCKET)
    const oldPoster = (await keysIn(S3_PUBLIC_BUCKET, 'posters/'))[0]!
    const media = await uploadAndTranscode()
    expect(media.status).toBe('ready')
    const after = await keysIn(S3_PRIVATE_BUCKET)
    const prefixOf = (keys: string[]) => new Set(keys.filter((k) => k.startsWith('hls/')).map((k) => k.split('/')[2]))
    expect(prefixOf(after).size).toBe(1)
    expect([...prefixOf(after)][0]).not.toBe([...prefixOf(before)][0])
    expect(after.filter((k) => k.startsWith('sources/'))).toHaveLength(1)
    expect(after.filter((k) => before.includes(k))).toEqual([])
    expect(await keysIn(S3_PUBLIC_BUCKET, 'posters/')).toEqual([media.poster_url!.replace('/media/', '')])
    expect(media.poster_url).not.toContain(oldPoster)
  })
})
