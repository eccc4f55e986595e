import { describe, expect, it } from 'vitest'
import { makeMember, multipartFile } from '#tests/support/media-fixtures.ts'
import { useTestApp } from '#tests/support/app.ts'

describe('input guard: control characters and bidirectional overrides', () => {
  const t = useTestApp()

  const expect400 = (res: { statusCode: number; json: () => unknown }) => {
    expect(res.statusCode).toBe(400)
    const body = res.json() as { code: number; msg: string }
    expect(body.code).toBe(400)
    expect(body.msg).toContain('控制字符')
  }

  it('refuses a NUL in a search keyword with 400 in the envelope', async () => {
    expect400(await t().app.inject({ method: 'GET', url: '/api/searchCourse?keyword=a%00b' }))
    const fine = await t().app.inject({ method: 'GET', url: '/api/searchCourse?keyword=ab' })
    expect(fine.statusCode).toBe(200)
  })

  it('refuses a NUL in a click statistic body', async () => {
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/stat/project/click',
      payload: { position: 'a\u0000b', page: 'home' },
    })
    expect400(res)
  })

  it('refuses other control characters in a JSON body, keys included, and in a path parameter', async () => {
    expect400(await t().app.inject({ method: 'POST', url: '/api/login', payload: { phone: '138\u000000138000' } }))
    expect400(await t().app.inject({ method: 'POST', url: '/api/login', payload: { 'ph\u0007one': 'x' } }))
    expect400(await t().app.inject({ method: 'GET', url: '/api/orders/A%00B' }))
  })

  it('refuses control characters in a query, strips direction overrides from body text, leaves text rules their codes', async () => {
    expect400(await t().app.inject({ method: 'GET', url: '/api/searchCourse?keyword=a%07b' }))
    expect((await t().app.inject({ method: 'GET', url: '/api/searchCourse?keyword=a%E2%80%AEb' })).statusCode).toBe(200)
    const member = await makeMember(t().database.db)
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/center/updateMemberInfo',
      headers: member.headers,
      payload: { nickname: '小\u202E明' },
    })
    expect(res.json()).toMatchObject({ code: 200, data: { nickname: '小明' } })
    const bell = await t().app.inject({
      method: 'POST',
      url: '/api/center/updateMemberInfo',
      headers: member.headers,
      payload: { nickname: '小\u0007明' },
    })
    expect(bell.json()).toMatchObject({ code: 460 })
  })

  it('refuses a NUL in a cookie value', async () => {
    expect400(
      await t().app.inject({ method: 'GET', url: '/api/searchCourse?keyword=ab', headers: { cookie: 'x=a%00b' } }),
    )
  })

  it('answers a truncated multipart upload with 400, not 500', async () => {
    const member = await makeMember(t().database.db)
    const { payload, headers } = multipartFile(Buffer.alloc(50_000, 7), 'a.png', 'image/png')
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/uploadImage',
      headers: { ...headers, ...member.headers },
      payload: payload.subarray(0, 20_000),
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 400 })
  })
})
