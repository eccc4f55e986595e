import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { staffActions } from '#server/db/schema/audit.ts'
import { until } from '#server/modules/payments/testing.ts'
import { OverlayCapsSettings } from '#shared/api/admin-overlays.ts'
import { DEFAULT_OVERLAY_CAPS } from '#shared/overlay-caps.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'

type Res<T = Record<string, unknown>> = { code: number; msg: string; data: T }

describe('the overlays’ frequency caps (/api/admin/settings/overlay-caps, sent with GET /api/systemOverlay)', () => {
  const t = useTestApp()
  let operator: Awaited<ReturnType<typeof makeMember>>

  const call = async <T = Record<string, unknown>>(
    method: 'GET' | 'PUT',
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
  const learnerCaps = async () =>
    (await call<{ caps: typeof DEFAULT_OVERLAY_CAPS }>('GET', '/api/systemOverlay', undefined, {})).body.data.caps

  beforeAll(async () => {
    operator = await makeMember(t().database.db, ['operator'])
  })

  it('sends issue 10 §4’s caps until operators save their own', async () => {
    expect(await learnerCaps()).toEqual({ per_page: 1, per_session: 1, urgent_exempt: true, seen_days: 30 })
    const got = await call('GET', '/api/admin/settings/overlay-caps')
    expect(got.body.data).toEqual({ ...DEFAULT_OVERLAY_CAPS, updated_at: null })
  })

  it('refuses learners, and a teacher’s change', async () => {
    const learner = await makeMember(t().database.db)
    expect((await call('GET', '/api/admin/settings/overlay-caps', undefined, learner.headers)).status).toBe(403)
    const teacher = await makeMember(t().database.db, ['teacher'])
    const put = await call('PUT', '/api/admin/settings/overlay-caps', DEFAULT_OVERLAY_CAPS, teacher.headers)
    expect(put.status).toBe(403)
  })

  it('keeps the caps within bounds', async () => {
    const put = (body: object) => call('PUT', '/api/admin/settings/overlay-caps', { ...DEFAULT_OVERLAY_CAPS, ...body })
    for (const wrong of [
      { per_page: 4 },
      { per_page: 0 },
      { per_session: 11 },
      { per_session: 1.5 },
      { seen_days: 0 },
      { seen_days: 366 },
      { urgent_exempt: 'yes' },
      { extra: 1 },
    ])
      expect((await put(wrong)).status, JSON.stringify(wrong)).toBe(400)
    const { seen_days: _, ...partial } = DEFAULT_OVERLAY_CAPS
    expect((await call('PUT', '/api/admin/settings/overlay-caps', partial)).status).toBe(400)
    expect((await put({ per_page: 4 })).body.data).toEqual({ field: 'per_page' })
    // The console's form shows the schema's own words.
    const parsed = OverlayCapsSettings.safeParse({ ...DEFAULT_OVERLAY_CAPS, per_page: 4 })
    expect(parsed.error?.issues[0]?.message).toBe('每个页面的弹窗数最多 3')
  })

  it('saves the caps; learners get them on their next page, and the change is logged', async () => {
    expect((await learnerCaps()).per_session).toBe(1) // read (and cached) before the change
    const caps = { per_page: 2, per_session: 3, urgent_exempt: false, seen_days: 7 }
    const saved = await call<typeof caps & { updated_at: string }>('PUT', '/api/admin/settings/overlay-caps', caps)
    expect(saved.body.data).toMatchObject(caps)
    expect(saved.body.data.updated_at).not.toBeNull()
    expect(await learnerCaps()).toEqual(caps)

    const log = () =>
      t()
        .database.db.select()
        .from(staffActions)
        .where(and(eq(staffActions.memberId, operator.id), eq(staffActions.route, '/api/admin/settings/overlay-caps')))
    await until(async () => (await log()).some((a) => a.code === 200))
  })
})
