import { and, count, eq } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { courses, videos } from '#server/db/schema/catalogue.ts'
import { commentLikes, comments } from '#server/db/schema/comments.ts'
import { statEvents } from '#server/db/schema/stats.ts'
import { seedIfEmpty } from '#server/db/seed.ts'
import { testClock } from '#server/modules/auth/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'
import type { Comment } from './comments.schema.ts'
import { normaliseContent } from './comments.service.ts'

interface Envelope<T> {
  code: number
  msg: string
  data: T
}
type Headers = Record<string, string>
type Member = Awaited<ReturnType<typeof makeMember>>
interface Page {
  list: Comment[]
  next_cursor: string | null
}
interface Thread extends Page {
  comment: Comment
  focus_id: number
  replies: Comment[]
}

const clock = testClock()

describe('comments API', () => {
  const t = useTestApp({}, { integrations: { now: clock.now } })
  let courseIds: number[] = []
  let vid: number
  let staff: Member
  let admin: Member

  beforeAll(async () => {
    const db = t().database.db
    await seedIfEmpty(db, { info: () => {} })
    // The demo seed's popular courses carry learners' comments already: each test takes a course without any.
    const commented = new Set((await db.select({ id: comments.courseId }).from(comments)).map((c) => c.id))
    courseIds = (await db.select({ id: courses.id }).from(courses).orderBy(courses.id))
      .map((c) => c.id)
      .filter((id) => !commented.has(id))
    const [v] = await db.select({ id: videos.id }).from(videos).where(eq(videos.courseId, courseIds[0]!)).limit(1)
    vid = v!.id
    staff = await makeMember(db, 'staff')
    admin = await makeMember(db, 'admin')
  })
  beforeEach(() => clock.reset())

  /** A course of its own for each test, so lists start empty. */
  let nextCourse = 1
  const freshCourse = () => courseIds[nextCourse++]!
  const member = () => makeMember(t().database.db)

  async function post<T>(url: string, payload: unknown, headers: Headers = {}) {
    const res = await t().app.inject({ method: 'POST', url, payload: payload as object, headers })
    return { status: res.statusCode, body: res.json<Envelope<T>>() }
  }
  async function get<T>(url: string, headers: Headers = {}) {
    const res = await t().app.inject({ method: 'GET', url, headers })
    return { status: res.statusCode, body: res.json<Envelope<T>>() }
  }
  async function comment(m: Member, payload: Record<string, unknown>) {
    const res = await post<Comment>('/api/comment', payload, m.headers)
    if (res.body.code !== 200) throw new Error(`comment failed: ${JSON.stringify(res.body)}`)
    return res.body.data
  }
  const listIds = async (courseId: number, headers: Headers = {}) =>
    (await get<Page>(`/api/comments?course_id=${courseId}`, headers)).body.data.list.map((c) => c.id)

  describe('POST /api/comment', () => {
    it('posts a comment on a course and answers it as others will see it', async () => {
      const m = await member()
      const course = freshCourse()
      const res = await post<Comment>(
        '/api/comment',
        { course_id: course, content: '  讲得很清楚，\r\n\r\n\r\n\r\n谢谢老师！  ' },
        m.headers,
      )
      expect(res.body).toMatchObject({
        code: 200,
        msg: '评论成功',
        data: {
          course_id: course,
          vid: null,
          parent_id: null,
          author: { id: m.id, nickname: expect.stringMatching(/^学员/) as string },
          content: '讲得很清楚，\n\n谢谢老师！',
          like_count: 0,
          liked: false,
          reply_count: 0,
          is_private: false,
          status: 'shown',
          type: 'normal',
          mine: true,
          reply_to: null,
        },
      })
      expect(await listIds(course)).toEqual([res.body.data.id])
    })

    it('stores markup as plain text, unchanged', async () => {
      const m = await member()
      const c = await comment(m, { course_id: freshCourse(), content: '<script>alert(1)</script> & <b>粗体</b>' })
      expect(c.content).toBe('<script>alert(1)</script> & <b>粗体</b>')
    })

    it('posts on a video, listed under the video and not the course', async () => {
      const m = await member()
      const c = await comment(m, { vid, content: '这一节的快捷键很实用' })
      expect(c).toMatchObject({ vid, course_id: courseIds[0] })
      expect((await get<Page>(`/api/comments?vid=${vid}`)).body.data.list.map((x) => x.id)).toContain(c.id)
      expect(await listIds(courseIds[0]!)).not.toContain(c.id)
    })

    it('files a reply to a reply under the top-level comment, and says whom it answers', async () => {
      const [a, b, c] = [await member(), await member(), await member()]
      const course = freshCourse()
      const root = await comment(a, { course_id: course, content: '请问第三节的素材在哪里下载？' })
      const r1 = await comment(b, { reply_to: root.id, content: '在课程简介里' })
      const r2 = await comment(c, { reply_to: r1.id, content: '找到了，谢谢', course_id: course })
      expect(r1).toMatchObject({ parent_id: root.id, course_id: course, reply_to: { id: root.id, member_id: a.id } })
      expect(r2).toMatchObject({
        parent_id: root.id,
        reply_to: { id: r1.id, member_id: b.id, nickname: expect.any(String) as string },
      })
      const list = (await get<Page>(`/api/comments?course_id=${course}`)).body.data.list
      expect(list.map((x) => x.id)).toEqual([root.id])
      expect(list[0]!.reply_count).toBe(2)
    })

    it('refuses a reply that names another course, or answers a missing comment', async () => {
      const m = await member()
      const root = await comment(m, { course_id: freshCourse(), content: '一级评论' })
      const wrong = await post(
        '/api/comment',
        { reply_to: root.id, course_id: courseIds[0], content: '回复' },
        m.headers,
      )
      expect(wrong).toMatchObject({ status: 400, body: { code: 400 } })
      const missing = await post('/api/comment', { reply_to: 999_999, content: '回复' }, m.headers)
      expect(missing.body).toMatchObject({ code: 404, msg: '要回复的评论不存在或已删除' })
    })

    it('checks the text: 1–500 characters after trimming (465), and the request shape (400)', async () => {
      const m = await member()
      const course = freshCourse()
      for (const content of ['', '   \n\t ', '\u200b\u200b', '字'.repeat(501)]) {
        const res = await post('/api/comment', { course_id: course, content }, m.headers)
        expect(res.body).toMatchObject({ code: 465, msg: '评论内容需为 1–500 个字' })
      }
      expect(
        (await post<Comment>('/api/comment', { course_id: course, content: `${'字'.repeat(500)}  ` }, m.headers)).body
          .code,
      ).toBe(200)
      // 500 characters that take two UTF-16 units each are still 500 characters.
      expect((await post('/api/comment', { course_id: course, content: '😀'.repeat(500) }, m.headers)).body.code).toBe(
        200,
      )
      const cases: [unknown, string][] = [
        [{ course_id: course }, 'content'],
        [{ course_id: course, content: 42 }, 'content'],
        [{ course_id: course, content: 'x'.repeat(2001) }, 'content'],
        [{ content: '没有目标' }, 'course_id'],
        [{ course_id: course, vid, content: '两个目标' }, 'course_id'],
        [{ course_id: 'abc', content: '坏 id' }, 'course_id'],
        [{ course_id: course, content: '私密', is_private: 'yes' }, 'is_private'],
      ]
      for (const [payload, field] of cases) {
        const res = await post('/api/comment', payload, m.headers)
        expect(res.status, JSON.stringify(payload)).toBe(400)
        expect(res.body.data).toEqual({ field })
      }
      expect((await post('/api/comment', { course_id: 999_999, content: '课程不存在' }, m.headers)).body).toMatchObject(
        { code: 404, msg: '课程不存在或已下架' },
      )
      expect((await post('/api/comment', { vid: 1, content: '视频不存在' }, m.headers)).body).toMatchObject({
        code: 404,
        msg: '视频不存在或已下架',
      })
    })

    it('asks anonymous visitors to log in (301)', async () => {
      expect((await post('/api/comment', { course_id: courseIds[0], content: '匿名' })).body.code).toBe(301)
    })

    it('allows 10 comments a minute per member, then answers 429 until the minute has passed', async () => {
      const m = await member()
      const other = await member()
      const course = freshCourse()
      clock.set(new Date('2026-05-01T02:00:00Z'))
      for (let i = 0; i < 10; i++) {
        clock.advance(3_000)
        expect(
          (await post('/api/comment', { course_id: course, content: `第 ${i + 1} 条` }, m.headers)).body.code,
        ).toBe(200)
      }
      const eleventh = await post('/api/comment', { course_id: course, content: '第 11 条' }, m.headers)
      expect(eleventh).toMatchObject({
        status: 429,
        body: { code: 429, msg: expect.stringContaining('每分钟最多发 10 条') as string },
      })
      // Someone else is not held up by it.
      expect((await post('/api/comment', { course_id: course, content: '别人的评论' }, other.headers)).body.code).toBe(
        200,
      )
      // A minute after the first one (at +3 s), one slot is free again.
      clock.advance(34_000)
      expect((await post('/api/comment', { course_id: course, content: '一分钟后' }, m.headers)).body.code).toBe(200)
      expect((await post('/api/comment', { course_id: course, content: '又太快了' }, m.headers)).body.code).toBe(429)
    })

    it('holds the limit when 15 comments arrive at once', async () => {
      const m = await member()
      const course = freshCourse()
      const results = await Promise.all(
        Array.from({ length: 15 }, (_, i) =>
          post('/api/comment', { course_id: course, content: `并发 ${i}` }, m.headers),
        ),
      )
      expect(results.filter((r) => r.body.code === 200)).toHaveLength(10)
      expect(results.filter((r) => r.body.code === 429)).toHaveLength(5)
    })
  })

  describe('GET /api/comments', () => {
    it('lists pinned comments first, then the newest, with reply and like counts and liked-by-me', async () => {
      const [a, b] = [await member(), await member()]
      const course = freshCourse()
      const c1 = await comment(a, { course_id: course, content: '第一条' })
      const c2 = await comment(b, { course_id: course, content: '第二条' })
      const c3 = await comment(a, { course_id: course, content: '第三条' })
      await comment(b, { reply_to: c1.id, content: '回复第一条' })
      await post('/api/comment/like', { id: c2.id }, a.headers)
      await post('/api/comment/operateType', { id: c1.id, type: 'pin' }, staff.headers)
      const { body } = await get<Page>(`/api/comments?course_id=${course}`, a.headers)
      expect(body.data.list.map((c) => c.id)).toEqual([c1.id, c3.id, c2.id])
      expect(body.data.list[0]).toMatchObject({ type: 'pinned', reply_count: 1, mine: true })
      expect(body.data.list[2]).toMatchObject({ like_count: 1, liked: true, mine: false })
      const anonymous = await get<Page>(`/api/comments?course_id=${course}`)
      expect(anonymous.body.data.list[2]).toMatchObject({ like_count: 1, liked: false, mine: false })
    })

    it('pages with a cursor, pinned comments only on the first page', async () => {
      const m = await member()
      const course = freshCourse()
      const made: number[] = []
      for (let i = 0; i < 5; i++) made.push((await comment(m, { course_id: course, content: `评论 ${i}` })).id)
      await post('/api/comment/operateType', { id: made[0], type: 'pin' }, staff.headers)
      const first = await get<Page>(`/api/comments?course_id=${course}&limit=2`)
      expect(first.body.data.list.map((c) => c.id)).toEqual([made[0], made[4], made[3]])
      const second = await get<Page>(`/api/comments?course_id=${course}&limit=2&cursor=${first.body.data.next_cursor}`)
      expect(second.body.data.list.map((c) => c.id)).toEqual([made[2], made[1]])
      expect(second.body.data.next_cursor).toBeNull()
    })

    it('answers an empty list for a course without comments, 404 for an unknown one, 400 for bad queries', async () => {
      expect((await get<Page>(`/api/comments?course_id=${freshCourse()}`)).body.data).toEqual({
        list: [],
        next_cursor: null,
      })
      expect((await get('/api/comments?course_id=999999')).body.code).toBe(404)
      for (const q of [
        '',
        `course_id=${courseIds[0]}&vid=${vid}`,
        'course_id=abc',
        'vid=0',
        `course_id=${courseIds[0]}&cursor=x`,
      ]) {
        expect((await get(`/api/comments?${q}`)).status, q).toBe(400)
      }
    })
  })

  describe('private comments', () => {
    it('are seen only by their author, the thread’s author, whom they answer, and staff', async () => {
      const [author, stranger, asker] = [await member(), await member(), await member()]
      const course = freshCourse()
      const secret = await comment(author, {
        course_id: course,
        content: '私密提问：我的作业能帮我看看吗',
        is_private: true,
      })
      expect(secret.is_private).toBe(true)
      expect(await listIds(course, author.headers)).toEqual([secret.id])
      expect(await listIds(course, stranger.headers)).toEqual([])
      expect(await listIds(course)).toEqual([])
      expect(await listIds(course, staff.headers)).toEqual([secret.id])
      expect((await get(`/api/commentDetail?id=${secret.id}`, stranger.headers)).body.code).toBe(404)
      expect((await post('/api/comment/like', { id: secret.id }, stranger.headers)).body.code).toBe(404)
      expect(
        (await post('/api/comment', { reply_to: secret.id, content: '偷偷回复' }, stranger.headers)).body.code,
      ).toBe(404)

      // Staff answer it: the reply is private too, and the asker sees it.
      const answer = await comment(staff, { reply_to: secret.id, content: '老师：第二张图的构图可以再调整' })
      expect(answer.is_private).toBe(true)
      const thread = await get<Thread>(`/api/commentDetail?id=${secret.id}`, author.headers)
      expect(thread.body.data.replies.map((r) => r.id)).toEqual([answer.id])

      // A private reply in a public thread: its author, the thread's author and whom it answers see it.
      const open = await comment(asker, { course_id: course, content: '公开提问' })
      const whisper = await comment(author, { reply_to: open.id, content: '私下回复你', is_private: true })
      const repliesFor = async (h: Headers) =>
        (await get<Thread>(`/api/commentDetail?id=${open.id}`, h)).body.data.replies.map((r) => r.id)
      expect(await repliesFor(asker.headers)).toEqual([whisper.id])
      expect(await repliesFor(author.headers)).toEqual([whisper.id])
      expect(await repliesFor(stranger.headers)).toEqual([])
      expect(
        (await get<Page>(`/api/comments?course_id=${course}`, stranger.headers)).body.data.list.find(
          (c) => c.id === open.id,
        )?.reply_count,
      ).toBe(0)
    })
  })

  describe('POST /api/comment/private', () => {
    it('lets the author switch a comment to private and back; others get 403, or 404 when they cannot see it', async () => {
      const [author, other] = [await member(), await member()]
      const course = freshCourse()
      const c = await comment(author, { course_id: course, content: '先公开' })
      expect((await post('/api/comment/private', { id: c.id }, other.headers)).body.code).toBe(403)
      expect((await post('/api/comment/private', { id: c.id }, author.headers)).body.data).toMatchObject({
        id: c.id,
        is_private: true,
      })
      expect(await listIds(course, other.headers)).toEqual([])
      expect((await post('/api/comment/private', { id: c.id }, other.headers)).body.code).toBe(404)
      expect(
        (await post<Comment>('/api/comment/private', { id: c.id, is_private: false }, author.headers)).body.data
          .is_private,
      ).toBe(false)
      expect(await listIds(course, other.headers)).toEqual([c.id])
      expect(
        (await post<Comment>('/api/comment/private', { id: c.id, is_private: true }, staff.headers)).body.data
          .is_private,
      ).toBe(true)
      expect((await post('/api/comment/private', { id: c.id })).body.code).toBe(301)
      expect((await post('/api/comment/private', { id: 'x' }, author.headers)).status).toBe(400)
    })
  })

  describe('POST /api/comment/like', () => {
    it('toggles one like per member, or sets it with `like`', async () => {
      const [a, b] = [await member(), await member()]
      const c = await comment(a, { course_id: freshCourse(), content: '求点赞' })
      expect((await post('/api/comment/like', { id: c.id }, b.headers)).body.data).toEqual({
        id: c.id,
        liked: true,
        like_count: 1,
      })
      expect((await post('/api/comment/like', { id: c.id, like: true }, b.headers)).body.data).toEqual({
        id: c.id,
        liked: true,
        like_count: 1,
      })
      expect((await post('/api/comment/like', { id: c.id }, a.headers)).body.data).toEqual({
        id: c.id,
        liked: true,
        like_count: 2,
      })
      expect((await post('/api/comment/like', { id: c.id }, b.headers)).body.data).toEqual({
        id: c.id,
        liked: false,
        like_count: 1,
      })
      expect((await post('/api/comment/like', { id: c.id, like: false }, b.headers)).body.data).toEqual({
        id: c.id,
        liked: false,
        like_count: 1,
      })
      expect((await post('/api/comment/like', { id: c.id })).body.code).toBe(301)
      expect((await post('/api/comment/like', { id: 999_999 }, b.headers)).body.code).toBe(404)
      expect((await post('/api/comment/like', { id: c.id, like: 'yes' }, b.headers)).status).toBe(400)
    })

    it('keeps like_count equal to the likes when 20 members like at once', async () => {
      const author = await member()
      const c = await comment(author, { course_id: freshCourse(), content: '大家一起点赞' })
      const likers = await Promise.all(Array.from({ length: 20 }, () => member()))
      const results = await Promise.all(
        likers.map((m) => post<{ liked: boolean }>('/api/comment/like', { id: c.id }, m.headers)),
      )
      expect(results.every((r) => r.body.code === 200 && r.body.data.liked)).toBe(true)
      const db = t().database.db
      const [row] = await db.select({ likeCount: comments.likeCount }).from(comments).where(eq(comments.id, c.id))
      expect(row!.likeCount).toBe(20)
    })

    it('keeps like_count equal to the likes when one member taps many times at once', async () => {
      const [author, tapper] = [await member(), await member()]
      const c = await comment(author, { course_id: freshCourse(), content: '连点测试' })
      await Promise.all(Array.from({ length: 15 }, () => post('/api/comment/like', { id: c.id }, tapper.headers)))
      const db = t().database.db
      const [row] = await db.select({ likeCount: comments.likeCount }).from(comments).where(eq(comments.id, c.id))
      const [likes] = await db.select({ n: count() }).from(commentLikes).where(eq(commentLikes.commentId, c.id))
      expect(row!.likeCount).toBe(likes!.n)
      expect(likes!.n).toBeLessThanOrEqual(1)
    })
  })

  describe('staff moderation', () => {
    it('refuses members (403) and anonymous visitors (301) on every operate endpoint', async () => {
      const m = await member()
      const c = await comment(m, { course_id: freshCourse(), content: '普通评论' })
      const calls: [string, Record<string, unknown>][] = [
        ['/api/comment/operate', { id: c.id, action: 'hide' }],
        ['/api/comment/operateType', { id: c.id, type: 'pin' }],
        ['/api/comment/operateTypeStatus', { id: c.id, type: 'featured', status: 'shown' }],
      ]
      for (const [url, payload] of calls) {
        expect((await post(url, payload, m.headers)).body.code, url).toBe(403)
        expect((await post(url, payload)).body.code, url).toBe(301)
      }
      const [row] = await t()
        .database.db.select({ status: comments.status, type: comments.type })
        .from(comments)
        .where(eq(comments.id, c.id))
      expect(row).toEqual({ status: 'shown', type: 'normal' })
    })

    it('hides (author and staff still see it), shows again, and deletes (nobody sees it)', async () => {
      const [author, other] = [await member(), await member()]
      const course = freshCourse()
      const c = await comment(author, { course_id: course, content: '待审核' })
      expect((await post('/api/comment/operate', { id: c.id, action: 'hide' }, staff.headers)).body.data).toEqual({
        id: c.id,
        status: 'hidden',
        type: 'normal',
        is_private: false,
      })
      expect(await listIds(course, other.headers)).toEqual([])
      expect(await listIds(course)).toEqual([])
      const own = (await get<Page>(`/api/comments?course_id=${course}`, author.headers)).body.data.list
      expect(own).toMatchObject([{ id: c.id, status: 'hidden' }])
      expect(await listIds(course, staff.headers)).toEqual([c.id])
      expect(
        (await post<Comment>('/api/comment/operate', { id: c.id, action: 'show' }, admin.headers)).body.data.status,
      ).toBe('shown')
      expect(await listIds(course, other.headers)).toEqual([c.id])
      expect(
        (await post<Comment>('/api/comment/operate', { id: c.id, action: 'delete' }, staff.headers)).body.data.status,
      ).toBe('deleted')
      for (const h of [author.headers, other.headers, staff.headers]) expect(await listIds(course, h)).toEqual([])
      expect((await get(`/api/commentDetail?id=${c.id}`, author.headers)).body.code).toBe(404)
      const [row] = await t()
        .database.db.select({ by: comments.moderatedBy })
        .from(comments)
        .where(eq(comments.id, c.id))
      expect(row!.by).toBe(staff.id)
    })

    it('pins and features top-level comments only; unpin leaves a featured comment featured', async () => {
      const m = await member()
      const course = freshCourse()
      const c = await comment(m, { course_id: course, content: '优质评论' })
      const r = await comment(m, { reply_to: c.id, content: '一条回复' })
      expect(
        (await post<Comment>('/api/comment/operateType', { id: r.id, type: 'pin' }, staff.headers)).body,
      ).toMatchObject({ code: 400, msg: '只能置顶或精选一级评论' })
      expect(
        (await post<Comment>('/api/comment/operateType', { id: c.id, type: 'feature' }, staff.headers)).body.data.type,
      ).toBe('featured')
      expect(
        (await post<Comment>('/api/comment/operateType', { id: c.id, type: 'unpin' }, staff.headers)).body.data.type,
      ).toBe('featured')
      expect(
        (await post<Comment>('/api/comment/operateType', { id: c.id, type: 'unfeature' }, staff.headers)).body.data
          .type,
      ).toBe('normal')
      expect((await post<Comment>('/api/comment/operateType', { id: c.id, type: 'top' }, staff.headers)).status).toBe(
        400,
      )
      expect(
        (await post<Comment>('/api/comment/operateType', { id: 999_999, type: 'pin' }, staff.headers)).body.code,
      ).toBe(404)
    })

    it('pins at most 10 shown comments per course or video, even when two pins race', async () => {
      const course = await makeCourse(t().database.db, { title: '置顶上限', status: 'published' })
      const made: number[] = []
      for (let i = 0; i < 12; i++)
        made.push((await comment(await member(), { course_id: course, content: `评论${i}` })).id)
      const pin = (id: number) => post<Comment>('/api/comment/operateType', { id, type: 'pin' }, staff.headers)
      for (const id of made.slice(0, 9)) expect((await pin(id)).body.code).toBe(200)
      // Nine pinned: of two pins at once, exactly one is the tenth.
      const raced = await Promise.all([pin(made[9]!), pin(made[10]!)])
      expect(raced.map((r) => r.body.code).sort()).toEqual([200, 409])
      expect(raced.find((r) => r.body.code === 409)!.body.msg).toBe('这门课已有 10 条置顶评论，请先取消一条再置顶')
      const pinnedNow = async () =>
        (await get<Page>(`/api/comments?course_id=${course}`)).body.data.list.filter((c) => c.type === 'pinned').length
      expect(await pinnedNow()).toBe(10)
      // Pinning an already pinned comment again is allowed; a hidden pinned one frees its place.
      expect((await pin(made[0]!)).body.code).toBe(200)
      const loser = raced[0].body.code === 409 ? made[9]! : made[10]!
      expect((await post('/api/comment/operate', { id: made[1], action: 'hide' }, staff.headers)).body.code).toBe(200)
      expect((await pin(loser)).body.code).toBe(200)
      // Showing the hidden pinned comment again would make 11.
      expect((await post('/api/comment/operate', { id: made[1], action: 'show' }, staff.headers)).body).toMatchObject({
        code: 409,
        msg: '这门课已有 10 条置顶评论，请先取消一条再置顶',
      })
      expect(await pinnedNow()).toBe(10)
      // A video counts its own pins.
      const video = await makeVideo(t().database.db, course)
      const onVideo = await comment(await member(), { vid: video, content: '视频评论' })
      expect((await pin(onVideo.id)).body.code).toBe(200)
    })

    it('sets type and status together with operateTypeStatus', async () => {
      const m = await member()
      const course = freshCourse()
      const c = await comment(m, { course_id: course, content: '先隐藏再精选' })
      await post('/api/comment/operate', { id: c.id, action: 'hide' }, staff.headers)
      const res = await post(
        '/api/comment/operateTypeStatus',
        { id: c.id, type: 'featured', status: 'shown' },
        staff.headers,
      )
      expect(res.body.data).toEqual({ id: c.id, status: 'shown', type: 'featured', is_private: false })
      expect((await post('/api/comment/operateTypeStatus', { id: c.id }, staff.headers)).status).toBe(400)
      expect((await post('/api/comment/operateTypeStatus', { id: c.id, status: 'gone' }, staff.headers)).status).toBe(
        400,
      )
      expect((await post('/api/comment/operate', { id: c.id, action: 'archive' }, staff.headers)).status).toBe(400)
    })
  })

  describe('GET /api/topComment', () => {
    it('lists pinned then featured comments of the course and its videos, as the viewer may see them', async () => {
      const m = await member()
      const course = courseIds[0]!
      const pinned = await comment(m, { course_id: course, content: '置顶的' })
      const featured = await comment(m, { vid, content: '精选的视频评论' })
      const secret = await comment(m, { course_id: course, content: '私密的精选', is_private: true })
      await comment(m, { course_id: course, content: '普通的' })
      for (const [id, type] of [
        [pinned.id, 'pin'],
        [featured.id, 'feature'],
        [secret.id, 'feature'],
      ] as const) {
        await post('/api/comment/operateType', { id, type }, staff.headers)
      }
      const anonymous = (await get<{ list: Comment[] }>(`/api/topComment?course_id=${course}`)).body.data.list
      expect(anonymous.map((c) => c.id)).toEqual([pinned.id, featured.id])
      const own = (await get<{ list: Comment[] }>(`/api/topComment?course_id=${course}`, m.headers)).body.data.list
      expect(own.map((c) => c.id)).toEqual([pinned.id, secret.id, featured.id])
      expect((await get<{ list: Comment[] }>(`/api/topComment?course_id=${freshCourse()}`)).body.data.list).toEqual([])
      expect((await get('/api/topComment?course_id=999999')).body.code).toBe(404)
      expect((await get('/api/topComment')).status).toBe(400)
    })
  })

  describe('GET /api/commentDetail', () => {
    it('gives the thread with its replies oldest first, paged; a reply’s id opens its thread', async () => {
      const [a, b] = [await member(), await member()]
      const root = await comment(a, { course_id: freshCourse(), content: '主楼' })
      const replies: number[] = []
      for (let i = 0; i < 3; i++)
        replies.push((await comment(i % 2 ? a : b, { reply_to: root.id, content: `回复 ${i}` })).id)
      const first = await get<Thread>(`/api/commentDetail?id=${root.id}&limit=2`, a.headers)
      expect(first.body.data).toMatchObject({ comment: { id: root.id, reply_count: 3 }, focus_id: root.id })
      expect(first.body.data.replies.map((r) => r.id)).toEqual(replies.slice(0, 2))
      const rest = await get<Thread>(`/api/commentDetail?id=${root.id}&limit=2&cursor=${first.body.data.next_cursor}`)
      expect(rest.body.data.replies.map((r) => r.id)).toEqual([replies[2]])
      expect(rest.body.data.next_cursor).toBeNull()
      const viaReply = await get<Thread>(`/api/commentDetail?id=${replies[1]}`)
      expect(viaReply.body.data).toMatchObject({ comment: { id: root.id }, focus_id: replies[1] })
      expect((await get('/api/commentDetail?id=999999')).body.code).toBe(404)
      expect((await get('/api/commentDetail')).status).toBe(400)
    })
  })

  describe('GET /api/memberComments', () => {
    it('lists my comments and replies (hidden included, deleted not) with their course and video, only mine', async () => {
      const [me, other] = [await member(), await member()]
      const course = freshCourse()
      const c1 = await comment(me, { course_id: course, content: '我的第一条' })
      const c2 = await comment(me, { vid, content: '我的视频评论' })
      const c3 = await comment(me, { reply_to: c1.id, content: '我的回复' })
      const gone = await comment(me, { course_id: course, content: '将被删除' })
      await comment(other, { course_id: course, content: '别人的' })
      await post('/api/comment/operate', { id: c2.id, action: 'hide' }, staff.headers)
      await post('/api/comment/operate', { id: gone.id, action: 'delete' }, staff.headers)
      const { body } = await get<{
        list: (Comment & { course: { id: number; title: string }; video: { id: number } | null })[]
        next_cursor: string | null
      }>('/api/memberComments?limit=2', me.headers)
      expect(body.data.list.map((c) => c.id)).toEqual([c3.id, c2.id])
      expect(body.data.list[1]).toMatchObject({
        status: 'hidden',
        video: { id: vid },
        course: { id: courseIds[0], title: expect.any(String) as string },
      })
      const more = await get<{ list: Comment[] }>(`/api/memberComments?cursor=${body.data.next_cursor}`, me.headers)
      expect(more.body.data.list.map((c) => c.id)).toEqual([c1.id])
      expect((await get('/api/memberComments')).body.code).toBe(301)
    })
  })

  describe('POST /api/comment/course/click', () => {
    it('records a click on the course’s comment area, signed in or not', async () => {
      const m = await member()
      const course = freshCourse()
      expect(
        (await post('/api/comment/course/click', { course_id: course, page: '/course/x.html' }, m.headers)).body,
      ).toEqual({ code: 200, msg: 'ok', data: {} })
      expect((await post('/api/comment/course/click', { course_id: course })).body.code).toBe(200)
      const rows = await t()
        .database.db.select()
        .from(statEvents)
        .where(and(eq(statEvents.event, 'commentCourse'), eq(statEvents.courseId, course)))
      expect(rows.map((r) => r.memberId).sort()).toEqual([m.id, null].sort())
      expect((await post('/api/comment/course/click', {})).status).toBe(400)
    })
  })
})

describe('normaliseContent', () => {
  it('keeps text, unifies line breaks, drops control characters and trims', () => {
    expect(normaliseContent('\u0007好\r\n课\u0000')).toBe('好\n课')
    expect(normaliseContent('a  \n\n\n\nb')).toBe('a\n\nb')
    expect(normaliseContent(' \u200b ')).toBeNull()
    expect(normaliseContent('好'.repeat(501))).toBeNull()
  })
})
