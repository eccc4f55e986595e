import { describe, expect, inject, it } from 'vitest'
import { specUrls } from '#tests/spec-urls.ts'

async function apiData<T>(baseUrl: string, path: string): Promise<T> {
  const res = await fetch(`${baseUrl}/api${path}`)
  const body = (await res.json()) as { code: number; data: T }
  if (body.code !== 200) throw new Error(`${path} answered ${body.code}`)
  return body.data
}

/** A demo course a Kuaishou SKU maps to: its landing page (/course/ks/{id}) is a 404 for any other course. */
async function kuaishouCourse(baseUrl: string): Promise<number> {
  let cursor = ''
  do {
    const page = await apiData<{ list: { id: number }[]; next_cursor: string | null }>(
      baseUrl,
      `/v2/course_list?limit=50${cursor && `&cursor=${encodeURIComponent(cursor)}`}`,
    )
    for (const { id } of page.list) {
      const res = await fetch(`${baseUrl}/api/ksxd/course/comments?course_id=${id}`)
      if (((await res.json()) as { code: number }).code === 200) return id
    }
    cursor = page.next_cursor ?? ''
  } while (cursor)
  throw new Error('no demo course is sold on Kuaishou')
}

describe('the route table on the running server (spec 2, routes.md)', () => {
  const baseUrl = inject('baseUrl')

  it('answers every URL of the spec table with a page (200) or an alias redirect (302), never 404', async () => {
    // Real ids from the demo content, so the catalogue screens that look their id up find it.
    const courses = await apiData<{ list: { id: number }[] }>(baseUrl, '/v2/course_list?limit=1')
    const course = courses.list[0]!.id
    const teacher = (await apiData<{ id: number }>(baseUrl, `/course/teacher?course_id=${course}`)).id
    const category = (await apiData<{ list: { id: number }[] }>(baseUrl, '/v2/cate')).list[0]!.id
    const kuaishou = await kuaishouCourse(baseUrl)
    const urls = specUrls({ course, teacher, category, kuaishou })
    expect(urls.length).toBeGreaterThan(140)

    const answers = await Promise.all(
      urls.map(async (url) => {
        const res = await fetch(`${baseUrl}${url}`, { redirect: 'manual' })
        await res.arrayBuffer()
        return { url, status: res.status }
      }),
    )
    const wrong = answers.filter((a) => a.status !== 200 && a.status !== 302).map((a) => `${a.url} → ${a.status}`)
    expect(wrong).toEqual([])
  })

  it.each([
    ['/home/home', '/'],
    ['/home/home1?sp=qr7', '/?sp=qr7'],
    ['/aa', '/ac'],
    ['/d', '/ke1'],
    ['/d_', '/ke1'],
    ['/dd/8', '/ke1'],
    ['/bs/2?sp=dy01&x=1', '/boutique?sp=dy01&x=1'],
    ['/n/1001?sp=ks', '/course/1001?sp=ks'],
    ['/s/abc', '/'],
    ['/z/9', '/'],
    ['/course', '/ke'],
  ])('redirects the alias %s to %s (302, query kept)', async (from, to) => {
    const res = await fetch(`${baseUrl}${from}`, { redirect: 'manual' })
    expect(res.status).toBe(302)
    expect(new URL(res.headers.get('location')!, baseUrl).href).toBe(new URL(to, baseUrl).href)
  })

  it('answers an unknown URL with the 404 page', async () => {
    const res = await fetch(`${baseUrl}/no/such/page`)
    expect(res.status).toBe(404)
    const html = await res.text()
    expect(html).toContain('This page could not be found')
    expect(html).toContain('页面不存在')
    // The router's own English error text stays out of the page (it is in the hydration data only).
    expect(/<main[\s\S]*<\/main>/.exec(html)![0]).not.toContain('No route matches')
  })

  it('says why a course link is a 404: the course is gone or taken off sale', async () => {
    const res = await fetch(`${baseUrl}/course/999999.html`)
    expect(res.status).toBe(404)
    const page = /<main[\s\S]*<\/main>/.exec(await res.text())![0]
    expect(page).toContain('页面不存在')
    expect(page).toContain('课程不存在或已下架')
  })
})
