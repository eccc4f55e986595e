import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { staffActions } from '#server/db/schema/audit.ts'
import { until } from '#server/modules/payments/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'

type Res<T = Record<string, unknown>> = { code: number; msg: string; data: T }
interface Queued {
  id: number
  content: string
  status: string
  type: string
  author: { id: number; nickname: string }
  course: { id: number; title: string }
}

describe('comment moderation in the operators console (/api/admin/comments)', () => {
  const t = useTestApp()
  let admin: Awaited<ReturnType<typeof makeMember>>
  let alice: Awaited<ReturnType<typeof makeMember>>
  let course: number
  const ids: number[] = []

  const call = async <T = Record<string, unknown>>(
    method: 'GET' | 'POST',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = admin.headers,
  ) => {
    const res = await t().app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: res.statusCode, body: res.json<Res<T>>() }
  }

  beforeAll(async () => {
    const { db } = t().database
    admin = await makeMember(db, 'admin')
    alice = await makeMember(db)
    course = await makeCourse(db, { title: '水彩入门', status: 'published' })
    for (const content of ['讲得很好', '广告：加微信 abc', '有没有配套素材？']) {
      const res = await call<{ id: number }>('POST', '/api/comment', { course_id: course, content }, alice.headers)
      expect(res.body.code).toBe(200)
      ids.push(res.body.data.id)
    }
  })

  it('refuses members and strangers', async () => {
    expect((await call('GET', '/api/admin/comments', undefined, {})).body.code).toBe(301)
    expect((await call('GET', '/api/admin/comments', undefined, alice.headers)).status).toBe(403)
    const post = await call(
      'POST',
      `/api/admin/comments/${ids[0]}/moderate`,
      { action: 'hide', reason: '测试' },
      alice.headers,
    )
    expect(post.status).toBe(403)
  })

  it('lists every comment with its author and course, filtered by text, member and course, paged', async () => {
    const all = await call<{ list: Queued[]; total: number }>('GET', `/api/admin/comments?course_id=${course}`)
    expect(all.body.data.total).toBe(3)
    expect(all.body.data.list.map((c) => c.id)).toEqual([...ids].reverse())
    expect(all.body.data.list[0]).toMatchObject({
      author: { id: alice.id },
      course: { id: course, title: '水彩入门' },
      status: 'shown',
    })
    const ad = await call<{ list: Queued[] }>('GET', `/api/admin/comments?q=${encodeURIComponent('微信')}`)
    expect(ad.body.data.list.map((c) => c.id)).toEqual([ids[1]])
    const paged = await call<{ list: Queued[]; total: number }>(
      'GET',
      `/api/admin/comments?member_id=${alice.id}&sort=id&page_size=2&page=2`,
    )
    expect(paged.body.data).toMatchObject({ total: 3, list: [{ id: ids[2] }] })
    const bad = await call('GET', '/api/admin/comments?status=pending')
    expect(bad).toMatchObject({ status: 400, body: { msg: '状态格式不正确' } })
    expect((await call('GET', '/api/admin/comments?format=csv')).body).toMatchObject({
      code: 400,
      msg: '这个列表不能导出',
    })
  })

  it('hides a comment with a reason: learners stop seeing it at once, the queue shows it hidden, the log keeps why', async () => {
    const learnerView = async () =>
      (
        await call<{ list: { id: number }[] }>('GET', `/api/comments?course_id=${course}`, undefined, {})
      ).body.data.list.map((c) => c.id)
    expect(await learnerView()).toContain(ids[1])

    const noReason = await call('POST', `/api/admin/comments/${ids[1]}/moderate`, { action: 'hide' })
    expect(noReason).toMatchObject({ status: 400, body: { msg: '请填写原因' } })
    const badAction = await call('POST', `/api/admin/comments/${ids[1]}/moderate`, { action: 'ban', reason: '广告' })
    expect(badAction.body.msg).toBe('操作格式不正确')
    expect(
      (await call('POST', '/api/admin/comments/999999/moderate', { action: 'hide', reason: '广告内容' })).body.code,
    ).toBe(404)

    const hidden = await call('POST', `/api/admin/comments/${ids[1]}/moderate`, { action: 'hide', reason: '广告内容' })
    expect(hidden.body).toMatchObject({ code: 200, data: { id: ids[1], status: 'hidden' } })
    expect(await learnerView()).not.toContain(ids[1])
    const queue = await call<{ list: Queued[] }>('GET', `/api/admin/comments?status=hidden&course_id=${course}`)
    expect(queue.body.data.list.map((c) => c.id)).toEqual([ids[1]])

    const pinned = await call('POST', `/api/admin/comments/${ids[0]}/moderate`, { action: 'pin', reason: '优质评论' })
    expect(pinned.body.data).toMatchObject({ type: 'pinned' })

    // The log is written after the answer is sent: wait for the last one.
    const logged = () => t().database.db.select().from(staffActions).where(eq(staffActions.memberId, admin.id))
    await until(async () => (await logged()).some((a) => (a.body as { reason?: string } | null)?.reason === '优质评论'))
    const log = await logged()
    expect(log.map((a) => [a.route, a.code, (a.body as { reason?: string } | null)?.reason])).toEqual(
      expect.arrayContaining([
        ['/api/admin/comments/:id/moderate', 200, '广告内容'],
        ['/api/admin/comments/:id/moderate', 200, '优质评论'],
        ['/api/admin/comments/:id/moderate', 400, undefined],
      ]),
    )
  })
})
