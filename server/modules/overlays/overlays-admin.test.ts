import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { staffActions } from '#server/db/schema/audit.ts'
import { until } from '#server/modules/payments/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'

type Res<T = Record<string, unknown>> = { code: number; msg: string; data: T }
interface Row {
  id: number
  name: string
  state: string
  urgent: boolean
  active: boolean
  clicks: number
  content: string
  preview: { so_id: number; so_content: string; so_jump_type: number | null; so_urgent: boolean }
}
interface Learner {
  so_id: number
  so_name: string
  so_urgent: boolean
}

describe('overlays in the operators console (/api/admin/overlays)', () => {
  const t = useTestApp()
  let operator: Awaited<ReturnType<typeof makeMember>>
  let teacher: Awaited<ReturnType<typeof makeMember>>

  const call = async <T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = operator.headers,
  ) => {
    const res = await t().app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: res.statusCode, body: res.json<Res<T>>() }
  }
  const learnerList = async () =>
    (await call<{ list: Learner[] }>('GET', '/api/systemOverlay', undefined, {})).body.data.list

  beforeAll(async () => {
    const { db } = t().database
    operator = await makeMember(db, ['operator'])
    teacher = await makeMember(db, ['teacher'])
  })

  it('refuses strangers, learners and a teacher (who may read but not change)', async () => {
    expect((await call('GET', '/api/admin/overlays', undefined, {})).body.code).toBe(301)
    const learner = await makeMember(t().database.db)
    expect((await call('GET', '/api/admin/overlays', undefined, learner.headers)).status).toBe(403)
    const body = { type: 1, name: '通知', content: '<p>x</p>' }
    expect((await call('POST', '/api/admin/overlays', body, teacher.headers)).status).toBe(403)
  })

  it('adds an overlay learners receive at once, sanitised, with its jump; lists it live with its taps', async () => {
    const created = await call<Row>('POST', '/api/admin/overlays', {
      type: 1,
      name: '双十二特惠',
      content: '<p>全场 <b>五折</b><script>alert(1)</script></p><img src="x" onerror="alert(1)">',
      button_text: '去看看',
      jump: { jump_type: 4, url: 'https://example.com/sale' },
      urgent: true,
      sort: 1,
    })
    expect(created.body.code).toBe(200)
    const row = created.body.data
    expect(row).toMatchObject({ name: '双十二特惠', state: 'live', urgent: true, clicks: 0 })
    expect(row.content).not.toContain('script')
    expect(row.content).not.toContain('onerror')
    expect(row.preview).toMatchObject({ so_id: row.id, so_jump_type: 4, so_urgent: true })

    const seen = (await learnerList()).find((o) => o.so_id === row.id)
    expect(seen).toMatchObject({ so_name: '双十二特惠', so_urgent: true })

    await call('POST', '/api/systemOverlay/click', { so_id: row.id }, {})
    const listed = await call<{ list: Row[]; total: number }>('GET', '/api/admin/overlays?state=live&q=双十二')
    expect(listed.body.data).toMatchObject({ total: 1, list: [{ id: row.id, clicks: 1 }] })

    const log = () => t().database.db.select().from(staffActions).where(eq(staffActions.memberId, operator.id))
    await until(async () => (await log()).some((a) => a.route === '/api/admin/overlays' && a.code === 200))
  })

  it('schedules one for later: not shown until it starts, listed as scheduled; switching off hides it', async () => {
    const later = new Date(Date.now() + 3_600_000).toISOString()
    const created = await call<Row>('POST', '/api/admin/overlays', { type: 1, name: '明天的通知', starts_at: later })
    const id = created.body.data.id
    expect(created.body.data.state).toBe('scheduled')
    expect((await learnerList()).map((o) => o.so_id)).not.toContain(id)
    const scheduled = await call<{ list: Row[] }>('GET', '/api/admin/overlays?state=scheduled')
    expect(scheduled.body.data.list.map((r) => r.id)).toEqual([id])

    const now = await call<Row>('PATCH', `/api/admin/overlays/${id}`, { starts_at: null })
    expect(now.body.data.state).toBe('live')
    expect((await learnerList()).map((o) => o.so_id)).toContain(id)

    const off = await call<Row>('PATCH', `/api/admin/overlays/${id}`, { active: false })
    expect(off.body.data).toMatchObject({ active: false, state: 'off' })
    expect((await learnerList()).map((o) => o.so_id)).not.toContain(id)
  })

  it('validates: the window, an image overlay without an image, a bad link, an empty change, an unknown id', async () => {
    const at = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString()
    const backwards = await call('POST', '/api/admin/overlays', {
      type: 1,
      name: 'x',
      starts_at: at(2),
      ends_at: at(1),
    })
    expect(backwards).toMatchObject({ status: 400 })
    expect(backwards.body.data).toEqual({ field: 'ends_at' })
    const noImage = await call('POST', '/api/admin/overlays', { type: 2, name: '海报' })
    expect(noImage.body.data).toEqual({ field: 'image_url' })
    const badUrl = await call('POST', '/api/admin/overlays', {
      type: 1,
      name: 'x',
      jump: { jump_type: 4, url: 'javascript:alert(1)' },
    })
    expect(badUrl.status).toBe(400)
    expect((await call('PATCH', '/api/admin/overlays/1', {})).status).toBe(400)
    expect((await call('PATCH', '/api/admin/overlays/999999', { active: false })).body.code).toBe(404)
  })

  it('previews a draft as learners receive it without saving it', async () => {
    const before = (await call<{ total: number }>('GET', '/api/admin/overlays')).body.data.total
    const preview = await call<{ so_content: string; so_name: string; so_jump_type: number | null }>(
      'POST',
      '/api/admin/overlays/preview',
      { type: 1, name: '草稿', content: '<p onclick="x()">你好</p>', jump: { jump_type: 1, course_id: 5 } },
      teacher.headers,
    )
    expect(preview.body.data).toEqual(
      expect.objectContaining({ so_name: '草稿', so_content: '<p>你好</p>', so_jump_type: 1 }),
    )
    expect((await call<{ total: number }>('GET', '/api/admin/overlays')).body.data.total).toBe(before)
  })
})
