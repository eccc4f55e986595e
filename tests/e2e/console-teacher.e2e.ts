import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import { apiData, call, grantStaff, signIn, signInOperator } from './support/commerce.ts'
import { consoleAs, settled } from './support/console.ts'

/**
 * A teacher in the console (issue 13 §1, scoped grants) at 1280×800: an admin links a teacher record to a staff
 * member with the teacher role; signed in, the teacher sees only their own course in the course list, renames it in
 * the editor, and is refused another teacher's course, in the console and by the API.
 */
describe('a teacher in the console', () => {
  it('edits their own course and is refused another teacher’s', { timeout: 120_000 }, async () => {
    const admin = await signInOperator()
    const teacher = await signIn(await grantStaff(admin, ['teacher']))
    const me = await apiData<{ member_id: number }>('/admin/me', teacher)
    const suffix = String(Date.now()).slice(-6)
    const made = async (path: string, body: object) => {
      const r = await call<{ id: number }>('POST', path, { token: admin, body })
      expect(r.code, r.msg).toBe(200)
      return r.data.id
    }
    const category = await made('/admin/categories', { name: `讲师课 ${suffix}` })
    const mine = await made('/admin/teachers', { name: `周老师 ${suffix}`, member_id: me.member_id })
    const other = await made('/admin/teachers', { name: `吴老师 ${suffix}` })
    const course = (title: string, teacherId: number) =>
      made('/admin/courses', {
        type: 'series',
        title,
        cover_url: '/media/images/2026/cover.webp',
        category_id: category,
        teacher_id: teacherId,
        price_fen: 9900,
        status: 'published',
      })
    const own = await course(`水彩入门 ${suffix}`, mine)
    const theirs = await course(`油画进阶 ${suffix}`, other)

    // The course list shows only the teacher's own course.
    const { context, page } = await consoleAs(teacher)
    await page.goto('/admin/catalogue/courses')
    await page.getByLabel('搜索').fill(suffix)
    await page.getByLabel('搜索').press('Enter')
    const ownRow = page.getByRole('row').filter({ hasText: `水彩入门 ${suffix}` })
    await expect.poll(() => ownRow.isVisible(), { timeout: 15_000 }).toBe(true)
    expect(
      await page
        .getByRole('row')
        .filter({ hasText: `油画进阶 ${suffix}` })
        .count(),
    ).toBe(0)
    await settled(page)
    await shot(page, 'console-teacher-courses-1280')

    // The teacher renames their own course in the editor.
    await page.goto(`/admin/catalogue/courses/${own}`)
    const title = page.getByLabel('标题', { exact: true })
    await expect.poll(() => title.inputValue(), { timeout: 15_000 }).toBe(`水彩入门 ${suffix}`)
    await title.fill(`水彩入门（第二版） ${suffix}`)
    await page.getByRole('button', { name: /^保\s?存$/ }).click()
    await expect
      .poll(() => page.getByText(`已保存「水彩入门（第二版） ${suffix}」`).isVisible(), { timeout: 10_000 })
      .toBe(true)
    await settled(page)
    await shot(page, 'console-teacher-course-editor-1280')
    const saved = await apiData<{ title: string }>(`/admin/courses/${own}`, teacher)
    expect(saved.title).toBe(`水彩入门（第二版） ${suffix}`)

    // Another teacher's course: the console says so, and the API refuses reading and changing it.
    await page.goto(`/admin/catalogue/courses/${theirs}`)
    await expect.poll(() => page.getByText('只能查看和修改自己的课程').isVisible(), { timeout: 15_000 }).toBe(true)
    expect(await page.getByLabel('标题', { exact: true }).count()).toBe(0)
    await shot(page, 'console-teacher-other-course-1280')
    expect((await call('GET', `/admin/courses/${theirs}`, { token: teacher })).code).toBe(403)
    const patch = await call('PATCH', `/admin/courses/${theirs}`, { token: teacher, body: { title: '改别人的课' } })
    expect(patch.code).toBe(403)
    expect((await apiData<{ title: string }>(`/admin/courses/${theirs}`, admin)).title).toBe(`油画进阶 ${suffix}`)
    await context.close()
  })
})
