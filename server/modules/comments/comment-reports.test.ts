import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '#tests/support/app.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'

type Res<T = Record<string, unknown>> = { code: number; msg: string; data: T }
interface Reported {
  id: number
  content: string
  status: string
  open_reports: number
  reports: number
  reasons: string[]
  details: string[]
  author: { id: number }
}

describe('reporting comments (POST /api/comment/report) and the reported queue (/api/admin/comments/reported)', () => {
  const t = useTestApp()
  let moderator: Awaited<ReturnType<typeof makeMember>>
  let author: Awaited<ReturnType<typeof makeMember>>
  const learners: Awaited<ReturnType<typeof makeMember>>[] = []
  let course: number
  const ids: number[] = []

  const call = async <T = Record<string, unknown>>(
    method: 'GET' | 'POST',
    url: string,
    payload: unknown,
    headers: Record<string, string>,
  ) => {
    const res = await t().app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: res.statusCode, body: res.json<Res<T>>() }
  }
  const report = (who: { headers: Record<string, string> }, id: number, reason = 'ad', detail?: string) =>
    call('POST', '/api/comment/report', { id, reason, ...(detail && { detail }) }, who.headers)
  const queue = async (query = '') =>
    (
      await call<{ list: Reported[]; total: number }>(
        'GET',
        `/api/admin/comments/reported${query}`,
        undefined,
        moderator.headers,
      )
    ).body.data

  beforeAll(async () => {
    const { db } = t().database
    moderator = await makeMember(db, ['assistant'])
    author = await makeMember(db)
    for (let i = 0; i < 3; i++) learners.push(await makeMember(db))
    course = await makeCourse(db, { title: '素描入门', status: 'published' })
    for (const content of ['加微信领资料 abc123', '老师讲得真好', '你这都不懂？']) {
      const res = await call<{ id: number }>('POST', '/api/comment', { course_id: course, content }, author.headers)
      ids.push(res.body.data.id)
    }
  })

  it('needs a sign-in, a reason, a comment the learner can see, and not their own', async () => {
    expect((await report({ headers: {} }, ids[0]!)).body.code).toBe(301)
    const noReason = await call('POST', '/api/comment/report', { id: ids[0] }, learners[0]!.headers)
    expect(noReason).toMatchObject({ status: 400 })
    expect(noReason.body.data).toEqual({ field: 'reason' })
    expect((await report(learners[0]!, 999999)).body.code).toBe(404)
    expect((await report(author, ids[0]!)).body).toMatchObject({ code: 400, msg: '不能举报自己的评论' })
  })

  it('takes one report per member per comment', async () => {
    const first = await report(learners[0]!, ids[0]!, 'ad', '私下加微信')
    expect(first.body).toMatchObject({ code: 200, msg: '已收到你的举报，我们会尽快处理' })
    const again = await report(learners[0]!, ids[0]!, 'abuse')
    expect(again.body).toMatchObject({ code: 409, msg: '你已举报过这条评论，我们会尽快处理' })
  })

  it('lists reported comments the most reported first, with reasons and words; refuses learners and teachers', async () => {
    await report(learners[1]!, ids[0]!, 'ad')
    await report(learners[2]!, ids[0]!, 'other')
    await report(learners[1]!, ids[2]!, 'abuse')
    const q = await queue(`?course_id=${course}`)
    expect(q.total).toBe(2)
    expect(q.list.map((c) => [c.id, c.open_reports])).toEqual([
      [ids[0], 3],
      [ids[2], 1],
    ])
    expect(q.list[0]!.reasons.sort()).toEqual(['ad', 'other'])
    expect(q.list[0]!.details).toEqual(['私下加微信'])
    expect(q.list[0]!.author.id).toBe(author.id)

    const fewestFirst = await queue(`?course_id=${course}&sort=reports`)
    expect(fewestFirst.list.map((c) => c.id)).toEqual([ids[2], ids[0]])

    const teacher = await makeMember(t().database.db, ['teacher'])
    expect((await call('GET', '/api/admin/comments/reported', undefined, teacher.headers)).status).toBe(403)
    expect((await call('GET', '/api/admin/comments/reported', undefined, learners[0]!.headers)).status).toBe(403)
  })

  it('a decision (hide, or keep it shown) clears its open reports; the all view still lists it; a pin does not', async () => {
    const hide = await call(
      'POST',
      `/api/admin/comments/${ids[0]}/moderate`,
      { action: 'hide', reason: '广告引流' },
      moderator.headers,
    )
    expect(hide.body.data).toMatchObject({ status: 'hidden' })
    const keep = await call(
      'POST',
      `/api/admin/comments/${ids[2]}/moderate`,
      { action: 'show', reason: '没有违规' },
      moderator.headers,
    )
    expect(keep.body.data).toMatchObject({ status: 'shown' })
    expect((await queue(`?course_id=${course}`)).total).toBe(0)
    const all = await queue(`?course_id=${course}&state=all`)
    expect(all.list.map((c) => [c.id, c.open_reports, c.reports])).toEqual([
      [ids[0], 0, 3],
      [ids[2], 0, 1],
    ])
    // A later report opens it again.
    await report(learners[2]!, ids[2]!, 'abuse')
    expect((await queue(`?course_id=${course}`)).list.map((c) => [c.id, c.open_reports])).toEqual([[ids[2], 1]])
    // Pinning or featuring it is not an answer to the report: it stays in the queue.
    for (const action of ['pin', 'unpin', 'feature', 'unfeature'])
      expect(
        (
          await call(
            'POST',
            `/api/admin/comments/${ids[2]}/moderate`,
            { action, reason: '优质内容' },
            moderator.headers,
          )
        ).body.code,
      ).toBe(200)
    expect((await queue(`?course_id=${course}`)).list.map((c) => [c.id, c.open_reports])).toEqual([[ids[2], 1]])
  })
})
