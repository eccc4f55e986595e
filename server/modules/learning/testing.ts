import type { FastifyInstance } from 'fastify'
import type { Db } from '#server/db/database.ts'
import { chapters } from '#server/db/schema/catalogue.ts'
import { videoMedia } from '#server/db/schema/media.ts'
import { makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'

export interface Envelope<T> {
  code: number
  msg: string
  data: T
}

/** Marks a video as transcoded (the playback API only reads these rows; no files are needed to get a URL). */
export async function makeReady(db: Db, videoId: number, duration: number) {
  await db.insert(videoMedia).values({
    videoId,
    status: 'ready',
    progress: 100,
    hlsPrefix: `hls/test/${videoId}`,
    keyBytes: Buffer.alloc(16, 7),
    renditions: [{ name: '360p', width: 640, height: 360, bandwidth: 300_000 }],
    duration,
  })
}

async function chapter(db: Db, courseId: number, title: string, sort: number) {
  const [row] = await db.insert(chapters).values({ courseId, title, sort }).returning({ id: chapters.id })
  return row!.id
}

/**
 * A small catalogue for the learning tests: a paid course (a free lesson, a 10 s preview, a locked lesson, and a
 * free lesson still processing), a free course, an unpublished course, and members (an admin to grant access).
 */
export async function makeLearningWorld(db: Db, now: Date) {
  const admin = await makeMember(db, 'admin', now)
  const alice = await makeMember(db, 'member', now)
  const bob = await makeMember(db, 'member', now)

  const paid = await makeCourse(db, { title: '付费课', priceFen: 19900 })
  const ch1 = await chapter(db, paid, '第一章', 0)
  const ch2 = await chapter(db, paid, '第二章', 1)
  const freeLesson = await makeVideo(db, paid, {
    chapterId: ch1,
    title: '免费第 1 课',
    durationSeconds: 30,
    isFree: true,
    sort: 0,
  })
  const preview = await makeVideo(db, paid, {
    chapterId: ch1,
    title: '试看第 2 课',
    durationSeconds: 100,
    freeSeconds: 10,
    sort: 1,
  })
  const locked = await makeVideo(db, paid, { chapterId: ch2, title: '付费第 3 课', durationSeconds: 200, sort: 0 })
  const processing = await makeVideo(db, paid, {
    chapterId: ch2,
    title: '处理中第 4 课',
    durationSeconds: 0,
    isFree: true,
    sort: 1,
  })
  for (const [id, d] of [
    [freeLesson, 30],
    [preview, 100],
    [locked, 200],
  ] as const)
    await makeReady(db, id, d)

  const free = await makeCourse(db, { title: '免费课', priceFen: 0, isFree: true })
  const freeVideo = await makeVideo(db, free, { title: '免费课第 1 课', durationSeconds: 60, sort: 0 })
  await makeReady(db, freeVideo, 60)

  const hidden = await makeCourse(db, { title: '已下架', status: 'hidden', isFree: true, priceFen: 0 })
  const hiddenVideo = await makeVideo(db, hidden, { title: '下架课视频', durationSeconds: 60 })
  await makeReady(db, hiddenVideo, 60)

  return { admin, alice, bob, paid, free, hidden, freeLesson, preview, locked, processing, freeVideo, hiddenVideo }
}

export type LearningWorld = Awaited<ReturnType<typeof makeLearningWorld>>

/** Grants a course through the operator API, as an operator would; returns the entitlement id. */
export async function grant(
  app: FastifyInstance,
  adminHeaders: Record<string, string>,
  memberId: number,
  courseId: number,
  expiresAt?: string,
) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/admin/entitlements',
    headers: adminHeaders,
    payload: { member_id: memberId, course_id: courseId, ...(expiresAt ? { expires_at: expiresAt } : {}) },
  })
  const body = res.json<Envelope<{ id: number }>>()
  if (body.code !== 200) throw new Error(`grant failed: ${res.body}`)
  return body.data.id
}
