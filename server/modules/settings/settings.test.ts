import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { staffActions } from '#server/db/schema/audit.ts'
import { until } from '#server/modules/payments/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'

type Res<T = Record<string, unknown>> = { code: number; msg: string; data: T }

describe('the customer-service setting (/api/admin/settings/service)', () => {
  const t = useTestApp({
    SERVICE_URL: 'https://work.weixin.qq.com/kfid/from-env',
    CONSULT_URL: 'https://work.weixin.qq.com/kfid/consult-env',
  })
  let operator: Awaited<ReturnType<typeof makeMember>>
  const saved = {
    service_url: 'https://work.weixin.qq.com/kfid/kfc-new-service',
    consult_url: 'https://work.weixin.qq.com/kfid/kfc-new-consult',
    consult_on_checkout: true,
    qr_image: 'https://cdn.example.com/wecom-qr.png',
    hours: '每天 9:00–21:00',
    phone: '400-800-1234',
  }

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

  beforeAll(async () => {
    operator = await makeMember(t().database.db, ['operator'])
  })

  it('answers the configured links until operators save the setting', async () => {
    const got = await call('GET', '/api/admin/settings/service')
    expect(got.body.data).toEqual({
      service_url: 'https://work.weixin.qq.com/kfid/from-env',
      consult_url: 'https://work.weixin.qq.com/kfid/consult-env',
      consult_on_checkout: false,
      qr_image: null,
      hours: '',
      phone: '',
      follow_qr_image: null,
      follow_text: '关注公众号，及时收到课程更新、直播提醒和学习资料。',
      wwx_qr_image: null,
      wwx_text: '添加老师企业微信，领取学习资料，有问题随时问。',
      updated_at: null,
    })
    expect((await call('GET', '/api/vip/contact', undefined, {})).body.data).toEqual({
      service_url: 'https://work.weixin.qq.com/kfid/from-env',
      consult_url: 'https://work.weixin.qq.com/kfid/consult-env',
    })
  })

  it('refuses learners and a teacher, and bad values', async () => {
    const learner = await makeMember(t().database.db)
    expect((await call('GET', '/api/admin/settings/service', undefined, learner.headers)).status).toBe(403)
    const teacher = await makeMember(t().database.db, ['teacher'])
    expect((await call('PUT', '/api/admin/settings/service', saved, teacher.headers)).status).toBe(403)
    const http = await call('PUT', '/api/admin/settings/service', { ...saved, service_url: 'http://x.cn/a' })
    expect(http).toMatchObject({ status: 400 })
    expect(http.body.data).toEqual({ field: 'service_url' })
    const script = await call('PUT', '/api/admin/settings/service', { ...saved, qr_image: 'javascript:alert(1)' })
    expect(script.status).toBe(400)
  })

  it('saves the setting: learners read it at once (the cached copy is dropped) and the log keeps who', async () => {
    await call('GET', '/api/vip/contact', undefined, {}) // cached now
    const put = await call<{ updated_at: string | null }>('PUT', '/api/admin/settings/service', saved)
    expect(put.body.data).toMatchObject({ ...saved })
    expect(put.body.data.updated_at).not.toBeNull()
    expect((await call('GET', '/api/vip/contact', undefined, {})).body.data).toEqual({
      service_url: saved.service_url,
      consult_url: saved.consult_url,
    })
    const page = await t().app.inject({ method: 'GET', url: '/api/admin/settings/service', headers: operator.headers })
    expect(page.json<Res>().data).toMatchObject(saved)
    const log = () => t().database.db.select().from(staffActions).where(eq(staffActions.memberId, operator.id))
    await until(async () => (await log()).some((a) => a.route === '/api/admin/settings/service' && a.code === 200))
  })
})
