import { describe, expect, it } from 'vitest'
import { headersOf, paidCourse, useCommerceApp, type ApiBody } from '#server/modules/payments/testing.ts'
import { makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'

/**
 * Issue 12: bidirectional embeddings, overrides, isolates and marks never reach stored text. "gnp.exe" behind a
 * right-to-left override displays as "exe.png"; each stored text field is written through the API with every such
 * character in it and read back without them (server/http/input-guard.ts strips them in one place).
 */
const bidi = [
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200E',
  '\u200F',
]
const spoof = (text: string) => `${bidi.join('')}${text}\u202Egnp.exe`
const clean = (text: string) => `${text}gnp.exe`

describe('bidirectional controls are stripped from stored text', () => {
  const { t } = useCommerceApp()
  const post = async <T>(url: string, token: string, payload: Record<string, unknown>) => {
    const res = await t().app.inject({ method: 'POST', url, headers: headersOf(token), payload })
    return res.json<ApiBody<T>>()
  }
  const rows = async (text: string) => (await t().database.pool.query<Record<string, unknown>>(text)).rows

  it('from a nickname', async () => {
    const m = await makeMember(t().database.db)
    const answer = await post<{ nickname: string }>('/api/center/updateMemberInfo', m.token, {
      nickname: spoof('小明'),
    })
    expect(answer).toMatchObject({ code: 200, data: { nickname: clean('小明') } })
    expect(await rows(`select nickname from members where id = ${m.id}`)).toEqual([{ nickname: clean('小明') }])
  })

  it('from a comment', async () => {
    const m = await makeMember(t().database.db)
    const course = await makeCourse(t().database.db, { priceFen: 0 })
    const answer = await post<{ id: number }>('/api/comment', m.token, { course_id: course, content: spoof('好课') })
    expect(answer.code).toBe(200)
    expect(await rows(`select content from comments where id = ${answer.data.id}`)).toEqual([
      { content: clean('好课') },
    ])
  })

  it('from a note', async () => {
    const m = await makeMember(t().database.db)
    const course = await makeCourse(t().database.db, { priceFen: 0 })
    const video = await makeVideo(t().database.db, course, { durationSeconds: 60, isFree: true })
    const answer = await post('/api/video/note', m.token, { vid: video, second: 1, content: spoof('要点') })
    expect(answer.code).toBe(200)
    expect(await rows(`select content from video_notes where member_id = ${m.id}`)).toEqual([
      { content: clean('要点') },
    ])
  })

  it('from a refund reason', async () => {
    const { m, orderNo } = await paidCourse(t)
    const answer = await post('/api/refunds', m.token, { order_no: orderNo, reason: spoof('买错了') })
    expect(answer).toMatchObject({ code: 200, data: { reason: clean('买错了') } })
    expect(await rows(`select reason from refunds where member_id = ${m.id}`)).toEqual([{ reason: clean('买错了') }])
  })

  it('from operator text (a teacher, a points note)', async () => {
    const admin = await makeMember(t().database.db, 'admin')
    const teacher = await post<{ id: number; name: string; title: string }>('/api/admin/teachers', admin.token, {
      name: spoof('林晓'),
      title: spoof('设计师'),
    })
    expect(teacher).toMatchObject({ code: 200, data: { name: clean('林晓'), title: clean('设计师') } })
    const m = await makeMember(t().database.db)
    const adjust = await post('/api/admin/points/adjust', admin.token, {
      member_id: m.id,
      delta: 5,
      note: spoof('补偿'),
    })
    expect(adjust.code).toBe(200)
    expect(await rows(`select name, title from teachers where id = ${teacher.data.id}`)).toEqual([
      { name: clean('林晓'), title: clean('设计师') },
    ])
    expect(JSON.stringify(await rows(`select * from point_entries where member_id = ${m.id}`))).not.toMatch(
      /[\u200E\u200F\u202A-\u202E\u2066-\u2069]/,
    )
  })

  it('from a search keyword (query strings too)', async () => {
    const res = await t().app.inject({
      method: 'GET',
      url: `/api/searchCourse?keyword=${encodeURIComponent(spoof('设计'))}`,
    })
    expect(res.json<ApiBody>().code).toBe(200)
    expect(res.body).not.toMatch(/[\u200E\u200F\u202A-\u202E\u2066-\u2069]/)
  })
})
