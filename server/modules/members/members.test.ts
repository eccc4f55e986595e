import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { members } from '#server/db/schema/members.ts'
import { randomPhone, signIn } from '#server/modules/auth/testing.ts'
import { multipartFile } from '#server/modules/media/testing.ts'
import { issueSession } from '#server/modules/sessions/session.service.ts'
import { useTestApp } from '#tests/support/app.ts'
import { grantRoles } from '#tests/support/media-fixtures.ts'
import { memberIdByPhone } from './members.service.ts'

type Body<T = Record<string, unknown>> = { code: number; msg: string; data: T }
type Profile = {
  member_id: number
  nickname: string
  avatar: string | null
  phone: string
  has_phone: boolean
  wechat_bound: boolean
  role: string
  created_at: string
}

const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-media-'))
afterAll(() => fs.rmSync(mediaDir, { recursive: true, force: true }))

const t = useTestApp({ MEDIA_DIR: mediaDir })
const get = (url: string, token?: string) =>
  t().app.inject({ method: 'GET', url, headers: token ? { 'zxb-token': token } : {} })
const update = (token: string | undefined, payload: unknown) =>
  t().app.inject({
    method: 'POST',
    url: '/api/center/updateMemberInfo',
    headers: token ? { 'zxb-token': token } : {},
    payload: payload as Record<string, unknown>,
  })
async function memberIdOf(token: string) {
  return (await get('/api/userinfo', token)).json<Body<Profile>>().data.member_id
}
async function uploadAvatar(token: string) {
  const { payload, headers } = multipartFile(
    await sharp({ create: { width: 40, height: 40, channels: 3, background: '#f60' } })
      .png()
      .toBuffer(),
  )
  const res = await t().app.inject({
    method: 'POST',
    url: '/api/uploadImage',
    headers: { ...headers, 'zxb-token': token },
    payload,
  })
  return res.json<Body<{ url: string }>>().data.url
}

describe('GET /api/userinfo', () => {
  it('shows the signed-in member’s profile with the phone masked', async () => {
    const { token } = await signIn(t().app, '13800138000')
    const res = await get('/api/userinfo', token)
    const body = res.json<Body<Profile>>()
    expect(body.code).toBe(200)
    expect(body.data).toEqual({
      member_id: expect.any(Number) as number,
      nickname: '学员8000',
      avatar: null,
      phone: '138****8000',
      has_phone: true,
      wechat_bound: false,
      role: 'member',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
      // The VIP comes with the profile (issue 11 §4): none yet.
      vip: null,
    })
    expect(res.body).not.toContain('13800138000')
  })

  it('shows a WeChat member without a phone', async () => {
    const [row] = await t()
      .database.db.insert(members)
      .values({ nickname: '微信用户', wxUnionid: 'u_1' })
      .returning({ id: members.id })
    const { token } = await issueSession(t().database.db, row!.id, 3, new Date())
    expect((await get('/api/userinfo', token)).json<Body<Profile>>().data).toMatchObject({
      phone: '',
      has_phone: false,
      wechat_bound: true,
    })
  })

  it('answers 301 without a token', async () => {
    expect((await get('/api/userinfo')).json()).toEqual({ code: 301, msg: '请先登录', data: {} })
  })
})

describe('GET /api/userinfoByMemberId', () => {
  let staffToken = ''
  let memberToken = ''
  let memberId = 0
  beforeAll(async () => {
    const staff = await signIn(t().app)
    // Granted before the first authenticated call, so the token lookup does not remember the member without roles.
    await grantRoles(t().database.db, (await memberIdByPhone(t().database.db, staff.phone))!, ['operator'])
    staffToken = staff.token
    memberToken = (await signIn(t().app)).token
    memberId = await memberIdOf(memberToken)
  })

  it('shows any member to staff', async () => {
    const body = (await get(`/api/userinfoByMemberId?member_id=${memberId}`, staffToken)).json<Body<Profile>>()
    expect(body.code).toBe(200)
    expect(body.data.member_id).toBe(memberId)
    expect(body.data.phone).toMatch(/^1\d\d\*{4}\d{4}$/)
  })

  it('refuses members with 403', async () => {
    const res = await get(`/api/userinfoByMemberId?member_id=${memberId}`, memberToken)
    expect(res.statusCode).toBe(403)
    expect(res.json()).toEqual({ code: 403, msg: '没有权限', data: {} })
  })

  it('answers 301 without a token', async () => {
    expect((await get(`/api/userinfoByMemberId?member_id=${memberId}`)).json<Body>().code).toBe(301)
  })

  it('answers 404 for an unknown member', async () => {
    const res = await get('/api/userinfoByMemberId?member_id=999999', staffToken)
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ code: 404, msg: '学员不存在', data: {} })
  })

  it.each(['', 'member_id=abc', 'member_id=-1', 'member_id=0', 'member_id=99999999999'])(
    'rejects the query %j with 400 naming member_id',
    async (query) => {
      const res = await get(`/api/userinfoByMemberId?${query}`, staffToken)
      expect(res.statusCode).toBe(400)
      expect(res.json<{ data: unknown }>().data).toEqual({ field: 'member_id' })
    },
  )
})

describe('POST /api/center/updateMemberInfo', () => {
  it('changes the nickname, trimmed', async () => {
    const { token } = await signIn(t().app)
    const res = await update(token, { nickname: '  小明同学  ' })
    expect(res.json<Body<Profile>>()).toMatchObject({ code: 200, msg: '修改成功', data: { nickname: '小明同学' } })
    expect((await get('/api/userinfo', token)).json<Body<Profile>>().data.nickname).toBe('小明同学')
  })

  it('accepts 20 characters, counting an emoji as one', async () => {
    const { token } = await signIn(t().app)
    const nickname = '学'.repeat(19) + '😀'
    expect((await update(token, { nickname })).json<Body<Profile>>().data.nickname).toBe(nickname)
  })

  it.each([
    ['empty', ''],
    ['only spaces', '   　 '],
    ['21 characters', 'a'.repeat(21)],
    ['a control character', 'ab\u0007c'],
    ['a line break', 'ab\ncd'],
    ['a zero-width space', 'ab\u200Bcd'],
  ])('refuses a nickname with %s (460)', async (_name, nickname) => {
    const { token } = await signIn(t().app)
    expect((await update(token, { nickname })).json()).toEqual({
      code: 460,
      msg: '昵称需为 1–20 个字，且不能包含控制字符',
      data: {},
    })
  })

  it('rejects a nickname that is not a string with 400 naming the field', async () => {
    const { token } = await signIn(t().app)
    const res = await update(token, { nickname: 12345 })
    expect(res.statusCode).toBe(400)
    expect(res.json<Body>().msg).toBe('昵称格式不正确')
  })

  it('rejects a request with neither field with 400', async () => {
    const { token } = await signIn(t().app)
    const res = await update(token, {})
    expect(res.statusCode).toBe(400)
    expect(res.json<Body>().msg).toBe('请提供要修改的昵称或头像')
  })

  it('sets the avatar to the member’s own upload', async () => {
    const { token } = await signIn(t().app)
    const url = await uploadAvatar(token)
    const res = await update(token, { avatar: url })
    expect(res.json<Body<Profile>>()).toMatchObject({ code: 200, data: { avatar: url } })
    // The absolute form on this site is accepted and stored relative.
    const absolute = await update(token, { avatar: `${t().config.publicUrl}${url}` })
    expect(absolute.json<Body<Profile>>().data.avatar).toBe(url)
  })

  it.each([
    ['an outside URL', 'https://evil.example.com/a.webp'],
    ['a made-up upload path', '/media/uploads/2025/0123456789abcdef0123456789abcdef.webp'],
    ['a path escaping the media folder', '/media/uploads/../../package.json'],
    ['a javascript: URL', 'javascript:alert(1)'],
  ])('refuses %s as avatar with 461', async (_name, avatar) => {
    const { token } = await signIn(t().app)
    expect((await update(token, { avatar })).json()).toEqual({
      code: 461,
      msg: '头像须是你上传的图片，请重新上传',
      data: {},
    })
  })

  it('refuses another member’s upload as avatar with 461', async () => {
    const other = await signIn(t().app)
    const url = await uploadAvatar(other.token)
    const { token } = await signIn(t().app)
    expect((await update(token, { avatar: url })).json<Body>().code).toBe(461)
  })

  it('changes nothing when one of two fields is refused', async () => {
    const { token } = await signIn(t().app)
    await update(token, { nickname: '原来的名字', avatar: 'https://evil.example.com/a.webp' })
    expect((await get('/api/userinfo', token)).json<Body<Profile>>().data.nickname).toBe(
      `学员${(await get('/api/userinfo', token)).json<Body<Profile>>().data.phone.slice(-4)}`,
    )
  })

  it('answers 301 without a token and 413 for an oversized body', async () => {
    expect((await update(undefined, { nickname: 'x' })).json<Body>().code).toBe(301)
    const { token } = await signIn(t().app)
    const res = await update(token, { nickname: 'x'.repeat(1_100_000) })
    expect(res.statusCode).toBe(413)
  })

  it('only changes the signed-in member', async () => {
    const a = await signIn(t().app, randomPhone())
    const b = await signIn(t().app, randomPhone())
    await update(a.token, { nickname: '甲' })
    expect((await get('/api/userinfo', b.token)).json<Body<Profile>>().data.nickname).not.toBe('甲')
  })
})
