import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { staffActions } from '#server/db/schema/audit.ts'
import { until } from '#server/modules/payments/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'
import type { StaffPopup } from './popups-admin.schema.ts'

type Res<T = Record<string, unknown>> = { code: number; msg: string; data: T }
interface Learner {
  id: number
  at_second: number
  title: string
  link: string | null
}
type Member = Awaited<ReturnType<typeof makeMember>>

describe('player popups in the operators console (/api/admin/popups)', () => {
  const t = useTestApp()
  let operator: Member
  let teacher: Member
  let course: number
  let video: number
  let other: number

  const call = async <T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = operator.headers,
  ) => {
    const res = await t().app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: res.statusCode, body: res.json<Res<T>>() }
  }
  const player = async (vid: number) =>
    (await call<{ list: Learner[] }>('GET', `/api/popup/player/v2?vid=${vid}`, undefined, {})).body.data.list

  beforeAll(async () => {
    const { db } = t().database
    operator = await makeMember(db, ['operator'])
    teacher = await makeMember(db, ['teacher'])
    course = await makeCourse(db, { title: '水彩入门', isFree: true, priceFen: 0 })
    video = await makeVideo(db, course, { title: '第 1 课 调色' })
    other = await makeVideo(db, course, { title: '第 2 课 叠色', sort: 1 })
  })

  it('refuses strangers, learners, and a teacher’s changes (a teacher may read)', async () => {
    expect((await call('GET', '/api/admin/popups', undefined, {})).body.code).toBe(301)
    const learner = await makeMember(t().database.db)
    expect((await call('GET', '/api/admin/popups', undefined, learner.headers)).status).toBe(403)
    const body = { target: 'video', target_id: video, at_second: 3, title: '进群' }
    expect((await call('POST', '/api/admin/popups', body, teacher.headers)).status).toBe(403)
    expect((await call('GET', '/api/admin/popups', undefined, teacher.headers)).body.code).toBe(200)
  })

  it('adds a popup the player shows at once, changes it, switches it off and removes it, each in the log', async () => {
    // The player's list is read (and cached) before the change: the change must still show on the next read.
    expect(await player(video)).toEqual([])
    const created = await call<StaffPopup>('POST', '/api/admin/popups', {
      target: 'course',
      target_id: course,
      at_second: 5,
      title: '加入水彩学习群',
      content: '老师每周答疑',
      link: '/customerG',
    })
    expect(created.body.code).toBe(200)
    const row = created.body.data
    expect(row).toMatchObject({ target: 'course', target_id: course, target_title: '水彩入门', active: true })
    expect(row.preview).toEqual({
      id: row.id,
      at_second: 5,
      title: '加入水彩学习群',
      content: '老师每周答疑',
      image: null,
      link: '/customerG',
    })
    // A course's popup shows in each of its videos, as the preview says.
    expect(await player(video)).toEqual([row.preview])
    expect(await player(other)).toEqual([row.preview])

    await call('POST', '/api/popup/player/click', { id: row.id }, {})
    const moved = await call<StaffPopup>('PATCH', `/api/admin/popups/${row.id}`, {
      target: 'video',
      target_id: other,
      at_second: 9,
      title: '加群领素材',
    })
    expect(moved.body.data).toMatchObject({ target: 'video', target_id: other, target_title: '第 2 课 叠色' })
    expect(moved.body.data.clicks).toBe(1)
    expect(await player(video)).toEqual([])
    expect((await player(other)).map((p) => [p.title, p.at_second])).toEqual([['加群领素材', 9]])

    expect((await call('PATCH', `/api/admin/popups/${row.id}`, { active: false })).body.code).toBe(200)
    expect(await player(other)).toEqual([])
    const off = await call<{ list: StaffPopup[]; total: number }>('GET', `/api/admin/popups?state=off&q=加群`)
    expect(off.body.data).toMatchObject({ total: 1, list: [{ id: row.id, active: false, clicks: 1 }] })

    expect((await call('DELETE', `/api/admin/popups/${row.id}`)).body.code).toBe(200)
    expect((await call('DELETE', `/api/admin/popups/${row.id}`)).body.code).toBe(404)

    const logged = async () =>
      (
        await t()
          .database.db.select()
          .from(staffActions)
          .where(and(eq(staffActions.memberId, operator.id), eq(staffActions.code, 200)))
      ).map((a) => `${a.method} ${a.route}`)
    await until(async () => (await logged()).includes('DELETE /api/admin/popups/:id'))
    expect(await logged()).toEqual(
      expect.arrayContaining(['POST /api/admin/popups', 'PATCH /api/admin/popups/:id', 'DELETE /api/admin/popups/:id']),
    )
  })

  it('lists by course and by video, sorted by the second', async () => {
    const add = async (target: 'course' | 'video', id: number, at: number) =>
      (
        await call<StaffPopup>('POST', '/api/admin/popups', {
          target,
          target_id: id,
          at_second: at,
          title: `第${at}秒`,
        })
      ).body.data.id
    const a = await add('video', video, 20)
    const b = await add('video', video, 10)
    const c = await add('course', course, 30)
    const byVideo = await call<{ list: StaffPopup[] }>('GET', `/api/admin/popups?video_id=${video}&sort=at_second`)
    expect(byVideo.body.data.list.map((p) => p.id)).toEqual([b, a])
    const byCourse = await call<{ list: StaffPopup[] }>('GET', `/api/admin/popups?course_id=${course}`)
    expect(byCourse.body.data.list.map((p) => p.id)).toEqual([c])
    expect((await player(video)).map((p) => p.id)).toEqual([b, a, c])
  })

  it('validates: the target exists, the second, the title, the link, target and id together, an unknown id', async () => {
    const post = (body: object) => call('POST', '/api/admin/popups', body)
    const base = { target: 'video', target_id: video, at_second: 1, title: '卡片' }
    const missing = await post({ ...base, target_id: 1_999_999 })
    expect(missing.body).toMatchObject({ code: 400 })
    expect(missing.body).toMatchObject({ msg: '视频 1999999 不存在', data: { field: 'target_id' } })
    expect((await post({ ...base, at_second: -1 })).status).toBe(400)
    expect((await post({ ...base, title: ' ' })).status).toBe(400)
    expect((await post({ ...base, link: 'javascript:alert(1)' })).status).toBe(400)
    expect((await post({ ...base, link: '//evil.example' })).status).toBe(400)
    expect((await post({ ...base, target: 'lesson' })).status).toBe(400)
    expect((await call('PATCH', '/api/admin/popups/1', { target: 'course' })).status).toBe(400)
    expect((await call('PATCH', '/api/admin/popups/1', {})).status).toBe(400)
    expect((await call('PATCH', '/api/admin/popups/1999999', { active: false })).body.code).toBe(404)
  })
})
