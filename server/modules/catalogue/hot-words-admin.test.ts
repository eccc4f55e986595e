import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { staffActions } from '#server/db/schema/audit.ts'
import { until } from '#server/modules/payments/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'

type Res<T = Record<string, unknown>> = { code: number; msg: string; data: T }

describe('hot words in the operators console (/api/admin/hot-words)', () => {
  const t = useTestApp()
  let admin: Awaited<ReturnType<typeof makeMember>>
  let learner: Record<string, string>
  beforeAll(async () => {
    admin = await makeMember(t().database.db, 'admin')
    learner = (await makeMember(t().database.db)).headers
  })
  const call = async <T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = admin.headers,
  ) => {
    const res = await t().app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: res.statusCode, body: res.json<Res<T>>() }
  }
  /** What the search page reads (cached for a few seconds). */
  const shown = async () =>
    (await call<{ list: { word: string }[] }>('GET', '/api/hotWords', undefined, {})).body.data.list.map((w) => w.word)

  it('adds, changes, orders and removes words; learners see each change at once', async () => {
    expect((await call('POST', '/api/admin/hot-words', { word: 'PS' }, learner)).status).toBe(403)
    expect(await shown()).toEqual([])
    expect((await call('POST', '/api/admin/hot-words', { word: '  ' })).body).toMatchObject({
      code: 400,
      msg: '热词格式不正确',
    })
    const a = (await call<{ id: number }>('POST', '/api/admin/hot-words', { word: 'PS' })).body.data.id
    const b = (await call<{ id: number }>('POST', '/api/admin/hot-words', { word: '剪映' })).body.data.id
    expect(await shown()).toEqual(['PS', '剪映'])
    await call('PATCH', `/api/admin/hot-words/${a}`, { word: 'Photoshop' })
    expect((await call('POST', '/api/admin/hot-words/order', { ids: [b] })).body.code).toBe(400)
    await call('POST', '/api/admin/hot-words/order', { ids: [b, a] })
    expect(await shown()).toEqual(['剪映', 'Photoshop'])
    await call('DELETE', `/api/admin/hot-words/${b}`)
    expect(await shown()).toEqual(['Photoshop'])
    expect((await call('DELETE', `/api/admin/hot-words/${b}`)).body.code).toBe(404)

    const logged = () => t().database.db.select().from(staffActions).where(eq(staffActions.memberId, admin.id))
    await until(async () => (await logged()).some((x) => x.method === 'DELETE' && x.code === 404))
    expect(new Set((await logged()).map((x) => `${x.method} ${x.route}`))).toEqual(
      new Set([
        'POST /api/admin/hot-words',
        'PATCH /api/admin/hot-words/:id',
        'POST /api/admin/hot-words/order',
        'DELETE /api/admin/hot-words/:id',
      ]),
    )
  })
})
