import { describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { members } from '#server/db/schema/members.ts'
import { createWechatHttpClient } from '#server/integrations/wechat/wechat-http-client.ts'
import { issueSession } from '#server/modules/sessions/session.service.ts'
import { useTestApp } from '#tests/support/app.ts'
import { injectFetch } from '#tests/support/inject-fetch.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'

/**
 * The two QR screens' calls (spec 7, issue 14 §2): GET /wechat/subscribe (whether the member follows the Official
 * Account, asked of WeChat's user info through the real adapter against the simulator) with the follow QR, and
 * GET /contact/qrcode (the staff WeCom contact QR); both QR codes and sentences come from the console's 客服设置.
 */
const env = { APP_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false' } as const
const config = loadConfig(env)
const t = useTestApp(env, {
  integrations: {
    wechat: createWechatHttpClient({
      apiBase: config.wechat.apiBase,
      appId: config.wechat.appId,
      appSecret: config.wechat.appSecret,
      fetch: injectFetch(() => t().app),
    }),
  },
})

type Res<T = Record<string, unknown>> = { code: number; msg: string; data: T }
interface Subscribe {
  subscribed: boolean | null
  qr_image: string | null
  text: string
}

async function wechatMember(openid: string) {
  const { db } = t().database
  const [row] = await db.insert(members).values({ nickname: '微信用户', wxOpenid: openid }).returning()
  const { token } = await issueSession(db, row!.id, 3, new Date())
  return { 'zxb-token': token }
}

const subscribe = async (headers: Record<string, string> = {}) =>
  (await t().app.inject({ method: 'GET', url: '/api/wechat/subscribe', headers })).json<Res<Subscribe>>()

const follow = (openid: string, yes: boolean) =>
  t().app.inject({ method: 'POST', url: '/__sim/wechat/cgi-bin/sim/follow', payload: { openid, follow: yes } })

describe('GET /api/wechat/subscribe', () => {
  it('says whether the member follows the Official Account, as WeChat answers', async () => {
    const openid = 'o_subscribe_test_user_0001'
    const headers = await wechatMember(openid)
    expect((await subscribe(headers)).data.subscribed).toBe(false)
    await follow(openid, true)
    expect((await subscribe(headers)).data.subscribed).toBe(true)
    await follow(openid, false)
    expect((await subscribe(headers)).data.subscribed).toBe(false)
  })

  it('cannot tell for a visitor or a member without WeChat (null), and still gives the follow QR', async () => {
    const visitor = await subscribe()
    expect(visitor).toMatchObject({ code: 200, data: { subscribed: null, qr_image: null } })
    expect(visitor.data.text).toContain('关注公众号')
    const phoneOnly = await makeMember(t().database.db)
    expect((await subscribe(phoneOnly.headers)).data.subscribed).toBeNull()
  })
})

describe('QR codes set in the console (PUT /api/admin/settings/service)', () => {
  it('shows the follow and WeCom QR codes and sentences operators saved, and checks what they save', async () => {
    const admin = await makeMember(t().database.db, 'admin')
    const current = (
      await t().app.inject({ method: 'GET', url: '/api/admin/settings/service', headers: admin.headers })
    ).json<Res<Record<string, unknown>>>().data
    const { updated_at: _, ...values } = current
    const save = (patch: Record<string, unknown>) =>
      t().app.inject({
        method: 'PUT',
        url: '/api/admin/settings/service',
        headers: admin.headers,
        payload: { ...values, ...patch },
      })
    for (const [field, value] of [
      ['wwx_qr_image', 'javascript:alert(1)'],
      ['follow_text', '关'.repeat(201)],
    ] as const) {
      const bad = await save({ [field]: value })
      expect(bad.statusCode).toBe(400)
      expect(bad.json<{ data: unknown }>().data).toEqual({ field })
    }

    const saved = await save({
      follow_qr_image: '/media/images/follow.webp',
      follow_text: '关注“自学”公众号，直播开始前提醒你',
      wwx_qr_image: '/media/images/teacher.webp',
      wwx_text: '加王老师企业微信，领 Excel 练习表',
    })
    expect(saved.json<Res>().code).toBe(200)

    const contact = (await t().app.inject({ method: 'GET', url: '/api/contact/qrcode' })).json<Res>()
    expect(contact).toEqual({
      code: 200,
      msg: 'ok',
      data: { qr_image: '/media/images/teacher.webp', text: '加王老师企业微信，领 Excel 练习表' },
    })
    expect((await subscribe()).data).toMatchObject({
      qr_image: '/media/images/follow.webp',
      text: '关注“自学”公众号，直播开始前提醒你',
    })
  })
})
