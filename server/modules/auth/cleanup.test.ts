import crypto from 'node:crypto'
import { eq, inArray } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { loginFailures, smsCodes } from '#server/db/schema/auth.ts'
import { members } from '#server/db/schema/members.ts'
import { oauthCodesUsed, oauthStates, wechatPayOpenids } from '#server/db/schema/wechat.ts'
import { useTestApp } from '#tests/support/app.ts'
import { beijingDayStart } from '#shared/time.ts'
import { pruneSignInRecords, startSignInCleanup } from './cleanup.ts'
import { outboxCode, randomIp, randomPhone, testClock } from './testing.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

type Body = { code: number; msg: string; data: Record<string, unknown> }

const clock = testClock()
const t = useTestApp({ WECHAT_OAUTH_PER_IP_PER_10MIN: '60' }, { integrations: { now: clock.now } })
const db = () => t().database.db
const hex = () => crypto.randomBytes(16).toString('hex')

async function addState(createdAt: Date) {
  const [row] = await db()
    .insert(oauthStates)
    .values({
      stateHash: hex(),
      browserHash: hex(),
      scope: 'snsapi_base',
      returnPath: '/',
      ip: randomIp(),
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 10 * MINUTE),
    })
    .returning({ id: oauthStates.id })
  return row!.id
}

async function addUsedCode(usedAt: Date) {
  const codeHash = hex()
  await db().insert(oauthCodesUsed).values({ codeHash, usedAt })
  return codeHash
}

async function addSmsCode(createdAt: Date, ttlMs = 5 * MINUTE) {
  const [row] = await db()
    .insert(smsCodes)
    .values({
      phone: randomPhone(),
      purpose: 'login',
      codeHash: hex(),
      ip: randomIp(),
      createdAt,
      expiresAt: new Date(createdAt.getTime() + ttlMs),
    })
    .returning({ id: smsCodes.id })
  return row!.id
}

async function addLoginFailure(createdAt: Date) {
  const [row] = await db()
    .insert(loginFailures)
    .values({ phone: randomPhone(), createdAt })
    .returning({ id: loginFailures.id })
  return row!.id
}

const ids = async <T>(rows: Promise<{ id: T }[]>) => (await rows).map((r) => r.id)

// Each test below works in its own years, earlier than the rows the tests before it left, so that its counts are
// its own rows only.
describe('pruneSignInRecords (server/modules/auth/cleanup.ts)', () => {
  it('deletes what is old and keeps what the checks still read', async () => {
    const now = new Date('2001-06-01T12:00:00Z')
    const ago = (ms: number) => new Date(now.getTime() - ms)

    // OAuth states: gone an hour after their expiry (they expire 10 minutes after their start).
    const oldState = await addState(ago(HOUR + 11 * MINUTE))
    const recentlyExpiredState = await addState(ago(30 * MINUTE))
    const liveState = await addState(ago(2 * MINUTE))
    // Used OAuth codes: kept a day (WeChat's codes live 5 minutes).
    const oldCode = await addUsedCode(ago(DAY + MINUTE))
    const recentCode = await addUsedCode(ago(DAY - MINUTE))
    // SMS codes and failed logins: kept two days (the day's limits look back to Beijing midnight).
    const oldSms = await addSmsCode(ago(2 * DAY + MINUTE))
    const keptSms = await addSmsCode(ago(2 * DAY - MINUTE))
    const liveSms = await addSmsCode(ago(MINUTE))
    const oldFailure = await addLoginFailure(ago(2 * DAY + MINUTE))
    const keptFailure = await addLoginFailure(ago(2 * DAY - MINUTE))

    expect(await pruneSignInRecords(db(), now)).toEqual({
      oauthStates: 1,
      oauthCodesUsed: 1,
      smsCodes: 1,
      loginFailures: 1,
      payOpenids: 0,
    })

    const states = await ids(
      db()
        .select({ id: oauthStates.id })
        .from(oauthStates)
        .where(inArray(oauthStates.id, [oldState, recentlyExpiredState, liveState])),
    )
    expect(states.sort()).toEqual([recentlyExpiredState, liveState].sort())
    const codes = await db()
      .select({ id: oauthCodesUsed.codeHash })
      .from(oauthCodesUsed)
      .where(inArray(oauthCodesUsed.codeHash, [oldCode, recentCode]))
    expect(codes.map((c) => c.id)).toEqual([recentCode])
    expect(
      (
        await ids(
          db()
            .select({ id: smsCodes.id })
            .from(smsCodes)
            .where(inArray(smsCodes.id, [oldSms, keptSms, liveSms])),
        )
      ).sort(),
    ).toEqual([keptSms, liveSms].sort())
    expect(
      await ids(
        db()
          .select({ id: loginFailures.id })
          .from(loginFailures)
          .where(inArray(loginFailures.id, [oldFailure, keptFailure])),
      ),
    ).toEqual([keptFailure])

    // Nothing more to do on a second round.
    expect(await pruneSignInRecords(db(), now)).toEqual({
      oauthStates: 0,
      oauthCodesUsed: 0,
      smsCodes: 0,
      loginFailures: 0,
      payOpenids: 0,
    })
  })

  it('deletes WeChat Pay openids once they expire, and keeps the live ones', async () => {
    const now = new Date('1995-06-01T12:00:00Z')
    const member = async () =>
      (await db().insert(members).values({ nickname: '学员' }).returning({ id: members.id }))[0]!.id
    const [expired, live] = [await member(), await member()]
    const openid = (expiresAt: Date, memberId: number) =>
      db()
        .insert(wechatPayOpenids)
        .values({ memberId, openid: `o_${hex()}`, expiresAt, createdAt: new Date(expiresAt.getTime() - 6 * HOUR) })
    await openid(new Date(now.getTime() - MINUTE), expired)
    await openid(new Date(now.getTime() + HOUR), live)
    expect((await pruneSignInRecords(db(), now)).payOpenids).toBe(1)
    const left = await db()
      .select({ id: wechatPayOpenids.memberId })
      .from(wechatPayOpenids)
      .where(inArray(wechatPayOpenids.memberId, [expired, live]))
    expect(left.map((r) => r.id)).toEqual([live])
  })

  it('never deletes a live SMS code, however old', async () => {
    const now = new Date('1999-07-01T12:00:00Z')
    const longLived = await addSmsCode(new Date(now.getTime() - 3 * DAY), 4 * DAY)
    expect((await pruneSignInRecords(db(), now)).smsCodes).toBe(0)
    expect(await db().select({ id: smsCodes.id }).from(smsCodes).where(eq(smsCodes.id, longLived))).toEqual([
      { id: longLived },
    ])
    await db().delete(smsCodes).where(eq(smsCodes.id, longLived))
  })

  it('works a backlog off in batches, at most maxBatches statements per table and round', async () => {
    const old = new Date('2000-01-01T00:00:00Z')
    const now = new Date('2000-01-10T00:00:00Z')
    for (let i = 0; i < 5; i++) {
      await addState(old)
      await addUsedCode(old)
      await addSmsCode(old)
      await addLoginFailure(old)
    }
    // Two batches of 2: 4 of the 5 rows of each table this round, the last one the next.
    expect(await pruneSignInRecords(db(), now, { batchSize: 2, maxBatches: 2 })).toEqual({
      oauthStates: 4,
      oauthCodesUsed: 4,
      smsCodes: 4,
      loginFailures: 4,
      payOpenids: 0,
    })
    expect(await pruneSignInRecords(db(), now, { batchSize: 2, maxBatches: 2 })).toEqual({
      oauthStates: 1,
      oauthCodesUsed: 1,
      smsCodes: 1,
      loginFailures: 1,
      payOpenids: 0,
    })
    expect(await pruneSignInRecords(db(), now, { batchSize: 2, maxBatches: 2 })).toEqual({
      oauthStates: 0,
      oauthCodesUsed: 0,
      smsCodes: 0,
      loginFailures: 0,
      payOpenids: 0,
    })
  })

  it('leaves the limits in force: sends per phone and per address, the slow-down of failed logins, OAuth starts', async () => {
    const dayStart = beijingDayStart(new Date())
    clock.set(new Date(dayStart.getTime() + MINUTE))
    const send = async (phone: string, ip = randomIp()) =>
      (
        await t().app.inject({ method: 'POST', url: '/api/send_code', payload: { phone }, remoteAddress: ip })
      ).json<Body>()
    const login = async (phone: string, phone_code: string) =>
      (await t().app.inject({ method: 'POST', url: '/api/login', payload: { phone, phone_code } })).json<Body>()

    // Just after Beijing midnight: a phone uses up its 10 sends from one address.
    const busy = randomPhone()
    const busyIp = randomIp()
    for (let i = 0; i < 10; i++) {
      expect((await send(busy, busyIp)).code).toBe(200)
      clock.advance(i === 4 ? HOUR : MINUTE)
    }

    // Late the same day: an address uses up its hour of sends and its 10 minutes of OAuth starts.
    clock.set(new Date(dayStart.getTime() + 23 * HOUR + 30 * MINUTE))
    const ip = randomIp()
    for (let i = 0; i < 20; i++) expect((await send(randomPhone(), ip)).code).toBe(200)
    const start = () =>
      t().app.inject({ method: 'GET', url: '/api/wechat/oauth', query: { path: '/' }, remoteAddress: ip })
    for (let i = 0; i < 60; i++) expect((await start()).statusCode).toBe(302)

    clock.advance(5 * MINUTE)
    // A phone whose wrong codes from one address slow it down: five kill a code, the sixth brings a 60 s wait.
    const slowed = randomPhone()
    let code = ''
    for (const tries of [5, 1]) {
      expect((await send(slowed)).code).toBe(200)
      code = await outboxCode(t().app, slowed)
      const wrong = String((Number(code) + 1) % 10_000).padStart(4, '0')
      for (let i = 0; i < tries; i++) expect((await login(slowed, wrong)).code).toBe(405)
      if (tries === 5) clock.advance(MINUTE)
    }
    await pruneSignInRecords(db(), clock.now())

    expect((await send(busy, busyIp)).msg).toBe('今日验证码发送次数已达上限，请明天再试')
    expect((await login(slowed, code)).code).toBe(429)
    expect((await send(randomPhone(), ip)).code).toBe(430)
    expect((await start()).statusCode).toBe(429)
  })
})

describe('startSignInCleanup', () => {
  it('runs a round at once and stop() waits for it', async () => {
    const old = await addLoginFailure(new Date(Date.now() - 3 * DAY))
    clock.reset()
    const cleanup = startSignInCleanup(t().app.services, t().app.log)
    await cleanup.stop()
    expect(await db().select().from(loginFailures).where(eq(loginFailures.id, old))).toEqual([])
  })
})
