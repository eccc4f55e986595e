import { beforeAll, describe, expect, it } from 'vitest'
import { seedIfEmpty } from '#server/db/seed.ts'
import { extendVipMembership } from '#server/modules/access/access.service.ts'
import { signIn } from '#server/modules/auth/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { buildDir } from '#tests/support/spawn-server.ts'
import { SESSION_COOKIE } from './session-cookie.ts'

/**
 * Member pages rendered with the member's data when the request carries the session cookie (issue 11 §4;
 * docs/decisions/2026-11-26-member-session-cookie.md), never cached for anyone else; without it, the same empty
 * shell as before. Needs the production build (`npm test` builds before the unit tests).
 */
describe('member pages rendered from the session cookie', () => {
  const t = useTestApp({ BUILD_DIR: buildDir }, { web: 'production' })
  const NICKNAME = '饼干里的学员'
  let token = ''
  let courseTitle = ''

  beforeAll(async () => {
    await seedIfEmpty(t().database.db, { info: () => {} })
    token = (await signIn(t().app)).token
    const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t().app.inject({ method, url, payload, headers: { 'zxb-token': token } })
    await api('POST', '/api/center/updateMemberInfo', { nickname: NICKNAME })
    const me = (await api('GET', '/api/userinfo')).json<{ data: { member_id: number } }>().data
    await extendVipMembership(t().database.db, me.member_id, 30, new Date())
    const list = (await api('GET', '/api/v2/course_list?limit=1')).json<{
      data: { list: { id: number; title: string }[] }
    }>().data.list
    courseTitle = list[0]!.title
    await api('POST', '/api/course/fav', { course_id: list[0]!.id })
  })

  const page = (url: string, cookie?: string) =>
    t().app.inject({ method: 'GET', url, headers: cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {} })

  it('renders /mine with the name and the VIP, privately', async () => {
    const res = await page('/mine', token)
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain(NICKNAME)
    expect(res.body).toContain('data-testid="mine-vip"')
    expect(res.body).toContain('自学 VIP 会员')
    expect(res.headers['cache-control']).toBe('private, no-store')
  })

  it('renders each member page with its data, and a client navigation gets it in the .data answer', async () => {
    expect((await page('/ke1', token)).body).toContain('还没有课程')
    expect((await page('/studyRecord', token)).body).toContain('还没有学习记录')
    const favourites = await page('/myCollection', token)
    expect(favourites.body).toContain('data-testid="favourites-list"')
    expect(favourites.body).toContain(courseTitle)
    expect(favourites.headers['cache-control']).toBe('private, no-store')
    const data = await page('/mine.data', token)
    expect(data.statusCode).toBe(200)
    expect(data.body).toContain(NICKNAME)
    expect(data.headers['cache-control']).toBe('private, no-store')
  })

  it('renders the empty shell without the cookie, as before, and never a signed-in render', async () => {
    // Signed in first, anonymous right after: nothing of the member's render is served again.
    await page('/mine', token)
    await page('/myCollection', token)
    for (const url of ['/mine', '/ke1', '/studyRecord', '/myCollection', '/mine.data']) {
      const res = await page(url)
      expect(res.statusCode, url).toBe(200)
      expect(res.body, url).not.toContain(NICKNAME)
      expect(res.body, url).not.toContain('还没有课程')
      expect(res.headers['cache-control'], url).not.toBe('private, no-store')
    }
    expect((await page('/myCollection')).body).not.toContain(courseTitle)
  })

  it('keeps public pages out of it: the page cache renders them for nobody, with or without the cookie', async () => {
    const signedIn = await page('/', token)
    const anonymous = await page('/')
    expect(signedIn.headers['cache-control']).not.toBe('private, no-store')
    expect(signedIn.body).not.toContain(NICKNAME)
    expect(anonymous.body).not.toContain(NICKNAME)
  })

  it('renders anonymously for a cookie whose session ended, and clears it', async () => {
    const other = (await signIn(t().app)).token
    await t().app.inject({ method: 'POST', url: '/api/logout', headers: { 'zxb-token': other } })
    const res = await page('/mine', other)
    expect(res.statusCode).toBe(200)
    expect(res.body).not.toContain('data-testid="mine-nickname"')
    expect(String(res.headers['set-cookie'])).toContain(`${SESSION_COOKIE}=; Path=/; Max-Age=0`)
  })
})
