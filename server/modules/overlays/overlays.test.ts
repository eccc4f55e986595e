import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { overlayClicks, systemOverlays } from '#server/db/schema/overlays.ts'
import { members } from '#server/db/schema/members.ts'
import { seedIfEmpty } from '#server/db/seed.ts'
import { issueSession } from '#server/modules/sessions/session.service.ts'
import { useTestApp } from '#tests/support/app.ts'
import type { Overlay } from './overlays.schema.ts'

const now = new Date('2026-03-01T04:00:00Z')

describe('system overlays', () => {
  const t = useTestApp({}, { integrations: { now: () => now } })

  beforeAll(async () => {
    await seedIfEmpty(t().database.db, { info: () => {} }, now)
  })

  async function list() {
    const res = await t().app.inject({ method: 'GET', url: '/api/systemOverlay' })
    expect(res.statusCode).toBe(200)
    return res.json<{ code: number; msg: string; data: { list: Overlay[] } }>()
  }

  function click(body: unknown, token?: string) {
    return t().app.inject({
      method: 'POST',
      url: '/api/systemOverlay/click',
      payload: body as object,
      headers: token ? { 'zxb-token': token } : {},
    })
  }

  describe('GET /api/systemOverlay', () => {
    it('answers the active overlays of both types with the spec’s so_* fields', async () => {
      const body = await list()
      expect(body.code).toBe(200)
      const [text, image] = body.data.list
      expect(text).toMatchObject({
        so_type: 1,
        so_name: '新课上线',
        so_btn: '去看看',
        so_image: null,
        so_jump_type: 1,
      })
      expect(text!.so_jump_params.course_type).toBe('series')
      expect(text!.so_jump_params.course_id).toBeTypeOf('number')
      expect(text!.so_content).toContain('<strong>达芬奇调色：电影感画面</strong>')
      expect(image).toMatchObject({ so_type: 2, so_image: '/demo/overlays/painting-season.webp', so_jump_type: 2 })
      expect(image!.so_jump_params.selected).toBeTypeOf('number')
    })

    it('says which overlays the operator marked urgent (so_urgent), false by default', async () => {
      const db = t().database.db
      const [row] = await db
        .insert(systemOverlays)
        .values({ type: 1, name: '紧急通知', content: '<p>系统维护</p>', urgent: true, sort: 10 })
        .returning()
      try {
        const all = (await list()).data.list
        expect(all.find((x) => x.so_id === row!.id)!.so_urgent).toBe(true)
        expect(all.filter((x) => x.so_id !== row!.id).every((x) => x.so_urgent === false)).toBe(true)
      } finally {
        await db.delete(systemOverlays).where(eq(systemOverlays.id, row!.id))
      }
    })

    it('sanitises stored HTML and drops a custom jump that is not http(s)', async () => {
      const db = t().database.db
      const [row] = await db
        .insert(systemOverlays)
        .values({
          type: 1,
          name: '测试',
          content: '<p onclick="x()">hi<script>alert(1)</script></p>',
          jumpType: 4,
          jumpParams: { url: 'javascript:alert(1)' },
          sort: 9,
        })
        .returning()
      try {
        const o = (await list()).data.list.find((x) => x.so_id === row!.id)!
        expect(o.so_content).toBe('<p>hi</p>')
        expect(o.so_jump_type).toBeNull()
        expect(o.so_jump_params.url).toBeUndefined()
        await db
          .update(systemOverlays)
          .set({ jumpParams: { url: 'https://zixue.test/promo' } })
          .where(eq(systemOverlays.id, row!.id))
        const again = (await list()).data.list.find((x) => x.so_id === row!.id)!
        expect(again).toMatchObject({ so_jump_type: 4, so_jump_params: { url: 'https://zixue.test/promo' } })
      } finally {
        await db.delete(systemOverlays).where(eq(systemOverlays.id, row!.id))
      }
    })

    it('leaves out switched-off overlays and those outside their time window', async () => {
      const db = t().database.db
      const rows = await db
        .insert(systemOverlays)
        .values([
          { type: 1, name: '已关闭', active: false },
          { type: 1, name: '已结束', endsAt: new Date(now.getTime() - 1000) },
          { type: 1, name: '未开始', startsAt: new Date(now.getTime() + 1000) },
          { type: 1, name: '进行中', startsAt: new Date(now.getTime() - 1000), endsAt: new Date(now.getTime() + 1000) },
        ])
        .returning()
      try {
        const names = (await list()).data.list.map((o) => o.so_name)
        expect(names).toContain('进行中')
        expect(names).not.toContain('已关闭')
        expect(names).not.toContain('已结束')
        expect(names).not.toContain('未开始')
      } finally {
        for (const r of rows) await db.delete(systemOverlays).where(eq(systemOverlays.id, r.id))
      }
    })
  })

  describe('POST /api/systemOverlay/click', () => {
    it('records a click by an anonymous visitor', async () => {
      const [first] = (await list()).data.list
      const res = await click({ so_id: first!.so_id })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ code: 200, msg: 'ok', data: {} })
      const rows = await t().database.db.select().from(overlayClicks).where(eq(overlayClicks.overlayId, first!.so_id))
      expect(rows.at(-1)).toMatchObject({ memberId: null, createdAt: now })
    })

    it('records the member when signed in, and accepts so_id as a string', async () => {
      const db = t().database.db
      const [m] = await db.insert(members).values({ nickname: '点击者' }).returning()
      // The auth hook checks expiry against the real clock.
      const { token } = await issueSession(db, m!.id, 2, new Date())
      const [, second] = (await list()).data.list
      const res = await click({ so_id: String(second!.so_id) }, token)
      expect(res.json<{ code: number }>().code).toBe(200)
      const rows = await db.select().from(overlayClicks).where(eq(overlayClicks.memberId, m!.id))
      expect(rows.map((r) => r.overlayId)).toEqual([second!.so_id])
    })

    it('answers an unknown overlay with the 404 code', async () => {
      const res = await click({ so_id: 999999 })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ code: 404, msg: '弹窗不存在', data: {} })
    })

    it.each([[{}], [{ so_id: 'abc' }], [{ so_id: 0 }], [{ so_id: 1.5 }], [{ so_id: null }]])(
      'rejects %j with 400 naming so_id',
      async (body) => {
        const res = await click(body)
        expect(res.statusCode).toBe(400)
        expect(res.json<{ data: unknown }>().data).toEqual({ field: 'so_id' })
      },
    )
  })
})
