import { describe, expect, it } from 'vitest'
import { useTestApp } from '#tests/support/app.ts'

describe('API foundation', () => {
  const t = useTestApp()

  it('answers an unknown /api path with 404 and the envelope', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/no/such/thing' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ code: 404, msg: '接口不存在：GET /api/no/such/thing', data: {} })
  })

  it('serves the OpenAPI document with the code table', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/openapi.json' })
    expect(res.statusCode).toBe(200)
    expect(res.json<{ info: { description: string } }>().info.description).toContain('301 NotLoggedIn')
  })

  it('returns a request id on every response', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/health' })
    expect(res.headers['x-request-id']).toMatch(/^[\w-]{8,}$/)
    const missing = await t().app.inject({ method: 'GET', url: '/api/no/such/thing' })
    expect(missing.headers['x-request-id']).toMatch(/^[\w-]{8,}$/)
    const refused = await t().app.inject({ method: 'GET', url: '/api/userinfo' })
    expect(refused.json<{ code: number }>().code).toBe(301)
    expect(refused.headers['x-request-id']).toMatch(/^[\w-]{8,}$/)
  })

  it('names a missing field in a validation error', async () => {
    const res = await t().app.inject({ method: 'POST', url: '/api/login', payload: { phone_code: '1234' } })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ code: 400, msg: '请填写手机号', data: { field: 'phone' } })
  })

  it('names a field of the wrong type', async () => {
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { phone: 13800138000, phone_code: '1234' },
    })
    expect(res.json<{ msg: string }>().msg).toBe('手机号格式不正确')
  })

  it('answers a body that is not JSON with 400 and a readable message, never a stack trace', async () => {
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"phone":',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ code: 400, msg: '请求内容不是有效的 JSON', data: {} })
  })

  it('answers an oversized body with 413', async () => {
    const res = await t().app.inject({ method: 'POST', url: '/api/login', payload: { phone: 'x'.repeat(2_000_000) } })
    expect(res.statusCode).toBe(413)
    expect(res.json<{ code: number }>().code).toBe(413)
  })
})
