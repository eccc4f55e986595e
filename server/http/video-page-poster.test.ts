import { beforeAll, describe, expect, it } from 'vitest'
import { seedIfEmpty } from '#server/db/seed.ts'
import { attachDemoMedia } from '#server/modules/media/demo-media.ts'
import { useTestApp } from '#tests/support/app.ts'
import { buildDir } from '#tests/support/spawn-server.ts'

/**
 * Issue 11 §4 (Lighthouse ≥ 98 on the video page, `npm run bench:lighthouse`): the poster of a free lesson is the
 * video page's largest paint, so it is in the server-rendered HTML, where the browser finds it before any script
 * runs, not set after hydration.
 */
describe('the video page of a free lesson', () => {
  const t = useTestApp({ BUILD_DIR: buildDir }, { web: 'production' })
  beforeAll(async () => {
    // As the server does on a first start: the demo catalogue, its lessons with their clips and posters.
    await seedIfEmpty(t().database.db, { info: () => {} })
    await attachDemoMedia(t().database.db, t().app.services.storage, { info: () => {}, warn: () => {} })
  })

  async function data<T>(url: string): Promise<T> {
    const res = await t().app.inject({ method: 'GET', url: `/api${url}` })
    expect(res.statusCode, url).toBe(200)
    return res.json<{ data: T }>().data
  }

  it('carries the lesson’s poster in its server-rendered <video>', async () => {
    const list = await data<{ list: { id: number; is_free: boolean; type: string }[] }>('/v2/course_list?limit=50')
    const course = list.list.find((c) => c.is_free && c.type !== 'live')
    expect(course, 'a free course in the demo').toBeDefined()
    const detail = await data<{ chapters: { videos: { id: number }[] }[] }>(`/course?id=${course!.id}`)
    const vid = detail.chapters.flatMap((c) => c.videos)[0]!.id
    const video = await data<{ play: { poster_url: string | null } | null }>(`/video?vid=${vid}`)
    const poster = video.play?.poster_url
    expect(poster, 'the demo lesson has a poster').toBeTruthy()

    const res = await t().app.inject({ method: 'GET', url: `/v/${vid}.html` })
    expect(res.statusCode).toBe(200)
    const tag = /<video[^>]*>/.exec(res.body)?.[0]
    expect(tag, 'a <video> in the server HTML').toBeDefined()
    expect(tag).toContain(`poster="${poster!.replaceAll('&', '&amp;')}"`)
  })
})
