import { describe, expect, it } from 'vitest'
import { systemCourseItems, teachers } from '#server/db/schema/catalogue.ts'
import { makeCategory, makeCourse, makeVideo } from '#tests/support/media-fixtures.ts'
import { useTestDatabase } from '#tests/support/database.ts'
import {
  buyableCoursesByIds,
  courseCardsByIds,
  coursesInSystemCourses,
  courseTitlesByIds,
  isPublishedCourse,
  publishedVideoCourseId,
  teacherFollowerCount,
  videoCardsByIds,
  videoTitlesByIds,
} from './catalogue.service.ts'

// The catalogue's doors for other modules: batch reads by id, one query each, published-only where they say so.
describe('catalogue doors (batch reads by id)', () => {
  const database = useTestDatabase()

  async function fixture() {
    const { db } = await database()
    const categoryId = await makeCategory(db)
    const [teacher] = await db.insert(teachers).values({ name: '王老师' }).returning({ id: teachers.id })
    const published = await makeCourse(db, { categoryId, teacherId: teacher!.id, title: '已上架' })
    const hidden = await makeCourse(db, { categoryId, status: 'hidden', title: '已下架' })
    const free = await makeCourse(db, { categoryId, isFree: true, priceFen: 0, title: '免费课' })
    const video = await makeVideo(db, published, { title: '第一课', durationSeconds: 600, freeSeconds: 30 })
    const hiddenVideo = await makeVideo(db, hidden)
    return { db, teacherId: teacher!.id, published, hidden, free, video, hiddenVideo }
  }

  it('gives cards of published courses only, with the teacher’s name', async () => {
    const f = await fixture()
    const cards = await courseCardsByIds(f.db, [f.published, f.hidden, f.free, f.published, 999_999])
    expect([...cards.keys()].sort()).toEqual([f.published, f.free].sort())
    expect(cards.get(f.published)).toMatchObject({ id: f.published, title: '已上架', teacher_name: '王老师' })
    expect(cards.get(f.free)).toMatchObject({ is_free: true, teacher_name: null })
    expect(await courseCardsByIds(f.db, [])).toEqual(new Map())
  })

  it('gives videos of published courses with their course’s card', async () => {
    const f = await fixture()
    const cards = await videoCardsByIds(f.db, [f.video, f.hiddenVideo])
    expect([...cards.keys()]).toEqual([f.video])
    expect(cards.get(f.video)).toEqual({
      video: { id: f.video, title: '第一课', duration: 600, is_free: false, free_seconds: 30 },
      course: expect.objectContaining({ id: f.published, title: '已上架' }) as unknown,
    })
  })

  it('answers whether a course or a video’s course is published', async () => {
    const f = await fixture()
    expect(await isPublishedCourse(f.db, f.published)).toBe(true)
    expect(await isPublishedCourse(f.db, f.hidden)).toBe(false)
    expect(await isPublishedCourse(f.db, 999_999)).toBe(false)
    expect(await publishedVideoCourseId(f.db, f.video)).toBe(f.published)
    expect(await publishedVideoCourseId(f.db, f.hiddenVideo)).toBeNull()
    expect(await publishedVideoCourseId(f.db, 999_999)).toBeNull()
  })

  it('gives titles of courses and videos of any status', async () => {
    const f = await fixture()
    const titles = await courseTitlesByIds(f.db, [f.published, f.hidden])
    expect(titles.get(f.hidden)).toEqual({ title: '已下架', cover: '/demo/cover.webp' })
    expect(titles.size).toBe(2)
    expect((await videoTitlesByIds(f.db, [f.video, f.hiddenVideo])).get(f.video)).toBe('第一课')
  })

  it('gives the published paid courses among ids, with their prices', async () => {
    const f = await fixture()
    const buyable = await buyableCoursesByIds(f.db, [f.published, f.hidden, f.free])
    expect([...buyable.values()]).toEqual([{ id: f.published, priceFen: 9900, originalPriceFen: null }])
  })

  it('knows teachers and what system courses are made of', async () => {
    const f = await fixture()
    expect(await teacherFollowerCount(f.db, f.teacherId)).toBe(0)
    expect(await teacherFollowerCount(f.db, 999_999)).toBeNull()
    const system = await makeCourse(f.db, { type: 'system', title: '体系课' })
    await f.db.insert(systemCourseItems).values([
      { systemCourseId: system, courseId: f.published, sort: 1 },
      { systemCourseId: system, courseId: f.hidden, sort: 2 },
    ])
    expect(await coursesInSystemCourses(f.db, [system, f.free])).toEqual(new Set([f.published, f.hidden]))
    expect(await coursesInSystemCourses(f.db, [])).toEqual(new Set())
  })
})
