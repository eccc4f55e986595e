import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '#tests/support/app.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'

// A malformed request is refused in words for people: the field's Chinese label, or a general sentence, and the
// field's key only in `data.field` (where a form puts the message). Never 「参数 price_fen 格式不正确」.

/** What a message must not contain: an API key (snake_case), or the parser's and the protocol's words. */
const identifier =
  /[A-Za-z0-9]+_[A-Za-z0-9_]+|\b(cursor|body|query|params|querystring|undefined|expected|received)\b|参数/

type Answer = { code: number; msg: string; data: { field?: string } }

describe('the words of a 400', () => {
  const t = useTestApp()
  let admin: Record<string, string>
  beforeAll(async () => {
    admin = (await makeMember(t().database.db, 'admin')).headers
  })

  const course = { type: 'series', title: '剪辑', cover_url: '/media/images/2026/cover.webp', category_id: 1 }
  it.each<[string, 'GET' | 'POST' | 'PATCH', string, object | undefined, string, string | undefined]>([
    ['a missing phone', 'POST', '/api/login', { phone_code: '1234' }, '请填写手机号', 'phone'],
    [
      'a price in yuan as text',
      'POST',
      '/api/admin/courses',
      { ...course, price_fen: '199' },
      '价格格式不正确',
      'price_fen',
    ],
    ['a negative price', 'POST', '/api/admin/courses', { ...course, price_fen: -1 }, '价格格式不正确', 'price_fen'],
    ['a missing price', 'POST', '/api/admin/vip-plans', { name: '月卡', days: 30 }, '请填写价格', 'price_fen'],
    [
      'a damaged page link',
      'GET',
      '/api/v2/course_list?cursor=notbase64json',
      undefined,
      '翻页位置无效，请刷新后重试',
      'cursor',
    ],
    [
      'another list’s page link',
      'GET',
      '/api/searchCourse?keyword=入门&cursor=WyJuZXciXQ',
      undefined,
      '翻页位置无效，请刷新后重试',
      'cursor',
    ],
    [
      'a field without a label',
      'GET',
      '/api/admin/members?joined_from=2026-1-1',
      undefined,
      '填写的内容格式不正确，请检查后重试',
      'joined_from',
    ],
    ['a missing course', 'GET', '/api/video_page', undefined, '请填写课程', 'course_id'],
    ['an id that is no number', 'PATCH', '/api/admin/categories/abc', { name: '好' }, '编号格式不正确', 'id'],
    ['an empty edit', 'PATCH', '/api/admin/categories/1', {}, '请求的内容不完整或格式不正确', undefined],
    ['a control character', 'GET', '/api/searchCourse?keyword=%01', undefined, '关键词含有不允许的控制字符', 'keyword'],
  ])('refuses %s in words for people, the key in data.field', async (_what, method, url, payload, msg, field) => {
    const res = await t().app.inject({ method, url, headers: admin, ...(payload && { payload }) })
    const body = res.json<Answer>()
    expect(res.statusCode).toBe(400)
    expect(body.msg).not.toMatch(identifier)
    expect(body).toEqual({ code: 400, msg, data: field ? { field } : {} })
  })
})
