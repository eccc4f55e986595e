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
  })
})
