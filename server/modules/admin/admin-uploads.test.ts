import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as tus from 'tus-js-client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { RESUMABLE_UPLOAD_EXPIRY_MS } from '#server/integrations/storage/resumable.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeTestClip } from '#tests/support/clip.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-tus-test-'))
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

type Res<T = Record<string, unknown>> = { code: number; msg: string; data: T }

const CHUNK = 64 * 1024

// Local storage only: with STORAGE=s3 the uploads collect in @tus/s3-store, which resumes by listing the multipart
// upload's parts (ListParts); s3rver, the S3-protocol server the tests run, does not implement ListParts.
describe('resumable video uploads (tus at /api/admin/uploads)', () => {
  const t = useTestApp({ DATA_DIR: dataDir, VIDEO_UPLOAD_MAX_BYTES: String(4 * 1024 * 1024) })
  let base: string
  let admin: Record<string, string>
  let member: Record<string, string>
  let clip: Buffer

  beforeAll(async () => {
    const { db } = t().database
    admin = (await makeMember(db, 'admin')).headers
    member = (await makeMember(db, 'member')).headers
    base = await t().app.listen({ host: '127.0.0.1', port: 0 })
    const file = path.join(dataDir, 'clip.mp4')
    makeTestClip(file, 3)
    clip = fs.readFileSync(file)
  })

  const api = async <T>(method: string, url: string, payload?: unknown) => {
    const res = await t().app.inject({
      method: method as 'POST',
      url,
      headers: admin,
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return res.json<Res<T>>()
  }
  let videos = 0
  async function video() {
    const category = await api<{ id: number }>('POST', '/api/admin/categories', { name: `剪辑${++videos}` })
    const course = await api<{ id: number }>('POST', '/api/admin/courses', {
      type: 'series',
      title: '断点续传测试',
      cover_url: '/media/images/2026/cover.webp',
      category_id: category.data.id,
      price_fen: 100,
    })
    const v = await api<{ id: number }>('POST', '/api/admin/videos', { course_id: course.data.id, title: '第一课' })
    return v.data.id
  }

  /** Starts a tus upload; resolves with the last response's status and body, or rejects with the failed one. */
  function send(file: Buffer, options: Partial<tus.UploadOptions> & { headers?: Record<string, string> }) {
    return new Promise<{ status: number; body: string; url: string | null }>((resolve, reject) => {
      const upload: tus.Upload = new tus.Upload(file, {
        endpoint: `${base}/api/admin/uploads`,
        chunkSize: CHUNK,
        retryDelays: [],
        headers: admin,
        ...options,
        onSuccess: ({ lastResponse }) =>
          resolve({ status: lastResponse.getStatus(), body: lastResponse.getBody(), url: upload.url }),
        onError: reject,
      })
      upload.start()
    })
  }
  /** An upload that stops after its first chunk (the connection "drops"); resolves with its address. */
  function interrupted(file: Buffer, metadata: Record<string, string>) {
    return new Promise<string>((resolve, reject) => {
      const upload: tus.Upload = new tus.Upload(file, {
        endpoint: `${base}/api/admin/uploads`,
        chunkSize: CHUNK,
        retryDelays: [],
        headers: admin,
        metadata,
        onChunkComplete: () => {
          void upload.abort().then(() => resolve(upload.url!))
        },
        onError: reject,
      })
      upload.start()
    })
  }

  /** The answer of an upload the server refuses (it fails the test if the upload goes through). */
  async function refused(attempt: Promise<unknown>) {
    try {
      await attempt
    } catch (err) {
      const res = (err as tus.DetailedError).originalResponse
      return { status: res?.getStatus(), body: JSON.parse(res?.getBody() ?? '{}') as Res }
    }
    throw new Error('the server took an upload it should have refused')
  }

  it('takes a file in chunks, resumes after an interruption from where the server stopped, and queues transcoding', async () => {
    const id = await video()
    const metadata = { video_id: String(id), filename: '第一课.mp4' }

    // The first attempt stops after one chunk (the connection "drops").
    const url = await interrupted(clip, metadata)
    const head = await fetch(new URL(url, base), { method: 'HEAD', headers: { ...admin, 'Tus-Resumable': '1.0.0' } })
    expect(head.status).toBe(200)
    expect(Number(head.headers.get('upload-offset'))).toBe(CHUNK)
    expect(Number(head.headers.get('upload-length'))).toBe(clip.length)

    // The second attempt asks where it stopped (HEAD) and sends only the rest.
    const sent: number[] = []
    const done = await send(clip, {
      uploadUrl: url,
      metadata,
      onChunkComplete: (chunk) => {
        sent.push(chunk)
      },
    })
    expect(sent.reduce((a, b) => a + b, 0)).toBe(clip.length - CHUNK)
    expect(done.status).toBe(200)
    const body = JSON.parse(done.body) as Res<{ status: string; source_name: string; source_bytes: number }>
    expect(body).toMatchObject({ code: 200, msg: '上传成功，正在排队转码' })
    expect(body.data).toMatchObject({ status: 'uploaded', source_name: '第一课.mp4', source_bytes: clip.length })

    // The source is the whole file, and the upload's scratch copy is gone.
    const folder = path.join(dataDir, 'media-private', 'sources', String(id))
    expect(fs.readdirSync(folder).map((f) => fs.readFileSync(path.join(folder, f)))).toEqual([clip])
    expect(fs.readdirSync(path.join(dataDir, 'resumable-uploads'))).toEqual([])
    const state = await api<{ media: { status: string } }>('GET', `/api/admin/videos/${id}`)
    expect(state.data.media.status).toBe('uploaded')
  })

  it('refuses members without the operator role and visitors without a token, before taking any byte', async () => {
    const id = await video()
    const asMember = await refused(send(clip, { headers: member, metadata: { video_id: String(id) } }))
    expect(asMember).toMatchObject({ status: 403, body: { code: 403 } })
    const anonymous = await fetch(`${base}/api/admin/uploads`, {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '10' },
    })
    expect(anonymous.headers.get('location')).toBeNull()
    expect(((await anonymous.json()) as Res).code).toBe(301)
  })

  it('answers in Chinese for a missing or unknown video, an announced size over the limit, and a file that is not a video', async () => {
    const missing = await refused(send(clip, { metadata: { filename: 'a.mp4' } }))
    expect(missing).toMatchObject({ status: 400, body: { code: 400 } })
    expect(missing.body.msg).toBe('上传没有指明是哪个视频，请从课时里重新上传')

    const unknown = await refused(send(clip, { metadata: { video_id: '999999' } }))
    expect(unknown).toMatchObject({ status: 404, body: { code: 404, msg: '视频 999999 不存在' } })

    const id = await video()
    const huge = Buffer.alloc(5 * 1024 * 1024)
    const tooLarge = await refused(send(huge, { metadata: { video_id: String(id) } }))
    expect(tooLarge).toMatchObject({ status: 422, body: { code: 471 } })

    const text = Buffer.from('hello, I am text\n'.repeat(500))
    const notVideo = await refused(send(text, { metadata: { video_id: String(id) } }))
    expect(notVideo).toMatchObject({ status: 422, body: { code: 470 } })
    expect(fs.readdirSync(path.join(dataDir, 'resumable-uploads'))).toEqual([])
    const state = await api<{ media: { status: string } }>('GET', `/api/admin/videos/${id}`)
    expect(state.data.media.status).toBe('none')
  })

  it('forgets an upload left unfinished for a day: its bytes are removed and it can no longer be resumed', async () => {
    const id = await video()
    const url = await interrupted(clip, { video_id: String(id), filename: 'a.mp4' })
    const scratch = () => fs.readdirSync(path.join(dataDir, 'resumable-uploads'))
    expect(scratch().length).toBeGreaterThan(0)
    const store = t().app.services.resumableUploads

    expect(await store.deleteExpired()).toBe(0)
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + RESUMABLE_UPLOAD_EXPIRY_MS + 60_000 })
    try {
      expect(await store.deleteExpired()).toBe(1)
    } finally {
      vi.useRealTimers()
    }
    expect(scratch()).toEqual([])
    const head = await fetch(new URL(url, base), { method: 'HEAD', headers: { ...admin, 'Tus-Resumable': '1.0.0' } })
    expect(head.status).toBe(404)
  })
})
