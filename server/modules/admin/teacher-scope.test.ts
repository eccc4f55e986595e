import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '#tests/support/app.ts'
import { makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'

type Res<T = Record<string, unknown>> = { code: number; msg: string; data: T }
type Member = Awaited<ReturnType<typeof makeMember>>

describe('a teacher reaches only the courses they teach (shared/staff/roles.ts scope, server/http/auth.ts)', () => {
  const t = useTestApp()
  let operator: Member
  let alice: Member
  let bob: Member
  let mine: number
  let theirs: number
  let theirChapter: number
  let theirVideo: number
  let myVideo: number

  const call = async <T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    who: Member,
    payload?: unknown,
  ) => {
    const res = await t().app.inject({
      method,
      url,
      headers: who.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: res.statusCode, body: res.json<Res<T>>() }
  }
  const teacherFor = async (name: string, member: Member) => {
    const made = await call<{ id: number }>('POST', '/api/admin/teachers', operator, { name })
    const linked = await call<{ member_id: number }>('PATCH', `/api/admin/teachers/${made.body.data.id}`, operator, {
      member_id: member.id,
    })
    expect(linked.body.data.member_id).toBe(member.id)
    return made.body.data.id
  }

  beforeAll(async () => {
    const { db } = t().database
    operator = await makeMember(db, ['operator'])
    alice = await makeMember(db, ['teacher'])
    bob = await makeMember(db, ['teacher'])
    mine = await makeCourse(db, { title: '爱丽丝的水彩课', teacherId: await teacherFor('爱丽丝', alice) })
    theirs = await makeCourse(db, { title: '鲍勃的素描课', teacherId: await teacherFor('鲍勃', bob) })
    myVideo = await makeVideo(db, mine, { title: '调色' })
    theirVideo = await makeVideo(db, theirs, { title: '排线' })
    const chapter = await call<{ id: number }>('POST', '/api/admin/chapters', operator, {
      course_id: theirs,
      title: '第一章',
    })
    theirChapter = chapter.body.data.id
  })

  it('lists only their own courses; operators see all', async () => {
    const ids = async (who: Member) =>
      (await call<{ list: { id: number }[] }>('GET', '/api/admin/courses?page_size=100', who)).body.data.list.map(
        (c) => c.id,
      )
    expect(await ids(alice)).toEqual([mine])
    expect(await ids(bob)).toEqual([theirs])
    expect(await ids(operator)).toEqual(expect.arrayContaining([mine, theirs]))
  })

  it('reads and edits their own course, its chapters and videos', async () => {
    expect((await call('GET', `/api/admin/courses/${mine}`, alice)).body.code).toBe(200)
    const renamed = await call<{ title: string }>('PATCH', `/api/admin/courses/${mine}`, alice, { title: '水彩进阶' })
    expect(renamed.body.data.title).toBe('水彩进阶')
    expect((await call('GET', `/api/admin/chapters?course_id=${mine}`, alice)).body.code).toBe(200)
    expect((await call('POST', '/api/admin/chapters', alice, { course_id: mine, title: '新章' })).body.code).toBe(200)
    expect((await call('GET', `/api/admin/videos/${myVideo}`, alice)).body.code).toBe(200)
    expect((await call('PATCH', `/api/admin/videos/${myVideo}`, alice, { title: '调色 2' })).body.code).toBe(200)
  })

  it('is refused another teacher’s course, its chapters and videos, and every course’s media list', async () => {
    const refused = [
      await call('GET', `/api/admin/courses/${theirs}`, alice),
      await call('PATCH', `/api/admin/courses/${theirs}`, alice, { title: '改掉' }),
      await call('GET', `/api/admin/chapters?course_id=${theirs}`, alice),
      await call('POST', '/api/admin/chapters', alice, { course_id: theirs, title: '插一章' }),
      await call('PATCH', `/api/admin/chapters/${theirChapter}`, alice, { title: '改章' }),
      await call('GET', `/api/admin/videos?course_id=${theirs}`, alice),
      await call('GET', `/api/admin/videos/${theirVideo}`, alice),
      await call('PATCH', `/api/admin/videos/${theirVideo}`, alice, { title: '改视频' }),
      await call('POST', `/api/admin/videos/${theirVideo}/transcode`, alice),
      await call('GET', '/api/admin/media', alice),
      // A new course has no teacher yet: creating one is for operators.
      await call('POST', '/api/admin/courses', alice, { type: 'single', title: '新课', category_id: 1 }),
    ]
    expect(refused.map((r) => r.status)).toEqual(refused.map(() => 403))
    const unchanged = await call<{ title: string }>('GET', `/api/admin/courses/${theirs}`, operator)
    expect(unchanged.body.data.title).toBe('鲍勃的素描课')
    // What is not anyone's own stays readable: the categories and teachers the course form picks from.
    expect((await call('GET', '/api/admin/categories', alice)).body.code).toBe(200)
  })

  it('links a teacher to one existing member only', async () => {
    const made = await call<{ id: number }>('POST', '/api/admin/teachers', operator, { name: '第三位' })
    const url = `/api/admin/teachers/${made.body.data.id}`
    const unknown = await call('PATCH', url, operator, { member_id: 1_999_999 })
    expect(unknown.body).toMatchObject({ code: 400 })
    expect(unknown.body.data).toEqual({ field: 'member_id' })
    const taken = await call('PATCH', url, operator, { member_id: alice.id })
    expect(taken.body.msg).toContain('已关联讲师')
    expect((await call('PATCH', url, alice, { member_id: alice.id })).status).toBe(403)
  })
})
