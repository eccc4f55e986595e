import type { Config } from '#server/config.ts'
import type { Db, DbOrTx, Tx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes, type CodeEntry } from '#server/http/codes.ts'
import { SmsSendError, type SmsProvider, type SmsPurpose } from '#server/integrations/sms/sms.ts'
import {
  findOrCreateMemberByPhone,
  maskPhone,
  memberByPhone,
  memberPhones,
  normalizePhone,
  profileOf,
  setPhone,
} from '#server/modules/members/members.service.ts'
import { endSession, issueSession, Platforms } from '#server/modules/sessions/session.service.ts'
import {
  consumeCode,
  consumeCodeById,
  consumeLiveCodes,
  countLoginFailuresSince,
  insertCode,
  insertLoginFailure,
  ipSendStats,
  latestLiveCode,
  lockKey,
  phoneSendStats,
  recordWrongAttempt,
} from './auth.repository.ts'
import { hashSmsCode, newSmsCode, SmsRules, smsCodeMatches } from './auth.rules.ts'
import { beijingDayStart } from '#shared/time.ts'

/** What a request tells the service about itself: the client address for limits, and where to log. */
export interface RequestContext {
  ip: string
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void }
}

export interface AuthServiceDeps {
  config: Config
  db: Db
  sms: SmsProvider
  now: () => Date
}

type Refusal = { ok: false; error: AppError }
const refuse = (entry: CodeEntry, msg?: string): Refusal => ({ ok: false, error: new AppError(entry, msg) })

const HOUR_MS = 3600_000

function minutesUntil(from: Date, to: Date) {
  return Math.max(1, Math.ceil((to.getTime() - from.getTime()) / 60_000))
}

/** `bind` and `step_up` codes are hashed with the member who asked, so another account cannot use them. */
function hashPurpose(purpose: SmsPurpose, memberId?: number) {
  return purpose === 'login' ? purpose : `${purpose}:${memberId}`
}

export function createAuthService(deps: AuthServiceDeps) {
  const { db, sms } = deps

  /**
   * Issues a code: every limit is checked and the code stored in one transaction holding the phone's and the
   * IP's advisory locks, so concurrent requests cannot both pass a limit. The SMS goes out after the commit; if
   * the provider fails the code is killed (the attempt still counts towards the limits, which protects a failing
   * provider from retries).
   */
  async function issueCode(
    rawPhone: string,
    purpose: SmsPurpose,
    ctx: RequestContext,
    check: (tx: Tx, phone: string, now: Date) => Promise<Refusal | null>,
    memberId?: number,
  ) {
    const phone = normalizePhone(rawPhone)
    const now = deps.now()
    const result = await db.transaction(async (tx) => {
      await lockKey(tx, `sms:phone:${phone}`)
      await lockKey(tx, `sms:ip:${ctx.ip}`)
      const refusal = await check(tx, phone, now)
      if (refusal) return refusal

      const dayStart = beijingDayStart(now)
      const hourAgo = new Date(now.getTime() - HOUR_MS)
      const stats = await phoneSendStats(tx, phone, dayStart, hourAgo, purpose === 'step_up')
      if (stats.lastAt && now.getTime() - stats.lastAt.getTime() < SmsRules.resendGapMs) {
        const seconds = Math.ceil((SmsRules.resendGapMs - (now.getTime() - stats.lastAt.getTime())) / 1000)
        return refuse(Codes.SmsTooFrequent, `验证码发送太频繁，请 ${seconds} 秒后再试`)
      }
      if (stats.dayCount >= SmsRules.perPhonePerDay)
        return refuse(Codes.SmsTooFrequent, '今日验证码发送次数已达上限，请明天再试')
      if (stats.hourCount >= SmsRules.perPhonePerHour && stats.hourOldest) {
        return refuse(
          Codes.SmsTooFrequent,
          `验证码发送太频繁，请 ${minutesUntil(now, new Date(stats.hourOldest.getTime() + HOUR_MS))} 分钟后再试`,
        )
      }
      const ipStats = await ipSendStats(tx, ctx.ip, hourAgo)
      if (ipStats.total >= deps.config.sms.perIpPerHour) {
        const wait = ipStats.oldest ? minutesUntil(now, new Date(ipStats.oldest.getTime() + HOUR_MS)) : 60
        return refuse(Codes.SmsTooFrequent, `当前网络获取验证码太频繁，请 ${wait} 分钟后再试`)
      }

      await consumeLiveCodes(tx, phone, purpose, now)
      const code = newSmsCode()
      const id = await insertCode(tx, {
        phone,
        purpose,
        codeHash: hashSmsCode(deps.config.sms.codePepper, phone, hashPurpose(purpose, memberId), code),
        ip: ctx.ip,
        createdAt: now,
        expiresAt: new Date(now.getTime() + SmsRules.codeTtlMs),
      })
      return { ok: true as const, id, code }
    })
    if (!result.ok) throw result.error

    try {
      await sms.send(phone, result.code, purpose)
    } catch (err) {
      await consumeCodeById(db, result.id, now)
      const providerCode = err instanceof SmsSendError ? err.providerCode : 'Exception'
      ctx.log.warn(
        { phone_masked: maskPhone(phone), purpose, provider: sms.name, provider_code: providerCode },
        'sms not sent',
      )
      throw err instanceof AppError ? err : new AppError(Codes.SmsFailed)
    }
    ctx.log.info({ phone_masked: maskPhone(phone), purpose, provider: sms.name }, 'sms code sent')
  }

  /**
   * Verifies a code inside the caller's transaction (which holds the phone's advisory lock). A wrong code counts
   * a try and kills the code at the fifth; a right one is consumed by a conditional update, so of many concurrent
   * requests with the same code exactly one wins.
   */
  async function verifyCode(
    tx: Tx,
    phone: string,
    purpose: SmsPurpose,
    code: string,
    now: Date,
    memberId?: number,
  ): Promise<Refusal | { ok: true }> {
    const row = await latestLiveCode(tx, phone, purpose)
    if (!row || row.expiresAt <= now) return refuse(Codes.CodeExpired)
    if (!smsCodeMatches(row.codeHash, deps.config.sms.codePepper, phone, hashPurpose(purpose, memberId), code)) {
      const attempts = await recordWrongAttempt(tx, row.id, now, SmsRules.maxWrongAttempts)
      return attempts !== null && attempts >= SmsRules.maxWrongAttempts
        ? refuse(Codes.CodeWrong, '验证码错误次数过多，已失效，请重新获取')
        : refuse(Codes.CodeWrong)
    }
    if (!(await consumeCode(tx, row.id, now))) return refuse(Codes.CodeExpired)
    return { ok: true }
  }

  function readCode(raw: string) {
    const code = raw.trim()
    if (!code) throw new AppError(Codes.CodeWrong, '请输入验证码')
    return code
  }

  async function loginLocked(tx: DbOrTx, phone: string, now: Date) {
    return (await countLoginFailuresSince(tx, phone, beijingDayStart(now))) >= SmsRules.failedLoginsPerDay
  }

  /** Forced purchaser mode (`ke2`): only phones of members marked as purchasers. */
  async function purchaserOnly(tx: DbOrTx, phone: string) {
    const member = await memberByPhone(tx, phone)
    return member?.isPurchaser ? null : refuse(Codes.PhoneNotAllowed)
  }

  /** A staff member's phone (step-up codes go there); a member without one must bind it first. */
  async function ownPhone(memberId: number) {
    const phone = (await memberPhones(db, [memberId])).get(memberId)
    if (!phone) throw new AppError(Codes.Forbidden, '请先在个人中心绑定手机号，再进行需要短信验证的操作')
    return phone
  }

  return {
    /**
     * POST /send_code. The answer is the same whether the phone belongs to a member or not; in purchaser mode
     * only purchasers' phones get a code. A phone locked for the day gets no code either.
     */
    async sendLoginCode(input: { phone: string; ke2: boolean }, ctx: RequestContext) {
      await issueCode(input.phone, 'login', ctx, async (tx, phone, now) => {
        if (await loginLocked(tx, phone, now)) return refuse(Codes.LoginLocked)
        return input.ke2 ? purchaserOnly(tx, phone) : null
      })
    },

    /**
     * POST /login: checks the day's failure lock, purchaser mode and the code in one transaction, creates the
     * member on a first login and issues a new session. Wrong codes are recorded as failed logins.
     */
    async login(input: { phone: string; phone_code: string; platform?: number; ke2: boolean }) {
      const phone = normalizePhone(input.phone)
      const code = readCode(input.phone_code)
      const now = deps.now()
      const result = await db.transaction(async (tx) => {
        await lockKey(tx, `sms:phone:${phone}`)
        if (await loginLocked(tx, phone, now)) return refuse(Codes.LoginLocked)
        if (input.ke2) {
          const refusal = await purchaserOnly(tx, phone)
          if (refusal) return refusal
        }
        const verified = await verifyCode(tx, phone, 'login', code, now)
        if (!verified.ok) {
          // Failures are written in this same transaction, which commits: the refusal is returned, not thrown.
          if (verified.error.entry === Codes.CodeWrong) await insertLoginFailure(tx, phone, now)
          return verified
        }
        const member = await findOrCreateMemberByPhone(tx, phone, now)
        const session = await issueSession(tx, member.id, input.platform ?? Platforms.mobile, now)
        return { ok: true as const, session }
      })
      if (!result.ok) throw result.error
      return result.session
    },

    /** POST /logout: the session's token stops working at once. */
    async logout(sessionId: number) {
      await endSession(db, sessionId, deps.now())
    },

    /** POST /bind_phone_send_code: a code to bind a phone that no other member holds. */
    async sendBindCode(memberId: number, input: { phone: string }, ctx: RequestContext) {
      await issueCode(
        input.phone,
        'bind',
        ctx,
        async (tx, phone) => {
          const owner = await memberByPhone(tx, phone)
          if (owner && owner.id !== memberId) return refuse(Codes.PhoneTaken)
          if (owner) return refuse(Codes.Conflict, '你已绑定该手机号')
          return null
        },
        memberId,
      )
    },

    /** POST /bind_phone: binds (or changes) the signed-in member's phone after checking the code; the new profile. */
    async bindPhone(memberId: number, input: { phone: string; phone_code: string }) {
      const phone = normalizePhone(input.phone)
      const code = readCode(input.phone_code)
      const now = deps.now()
      const result = await db.transaction(async (tx) => {
        await lockKey(tx, `sms:phone:${phone}`)
        const owner = await memberByPhone(tx, phone)
        if (owner && owner.id !== memberId) return refuse(Codes.PhoneTaken)
        const verified = await verifyCode(tx, phone, 'bind', code, now, memberId)
        if (!verified.ok) return verified
        if (!owner) await setPhone(tx, memberId, phone, now)
        return { ok: true as const }
      })
      if (!result.ok) throw result.error
      const profile = await profileOf(db, memberId)
      if (!profile) throw new AppError(Codes.NotLoggedIn)
      return profile
    },

    /** POST /api/admin/step-up/send_code: a code to the staff member's own phone, to confirm a sensitive action. */
    async sendStepUpCode(memberId: number, ctx: RequestContext) {
      const phone = await ownPhone(memberId)
      await issueCode(phone, 'step_up', ctx, async () => null, memberId)
      return { phone: maskPhone(phone) }
    },

    /** POST /api/admin/step-up: checks the code (wrong tries count and kill it as for sign-in). */
    async verifyStepUp(memberId: number, rawCode: string) {
      const phone = await ownPhone(memberId)
      const code = readCode(rawCode)
      const now = deps.now()
      const result = await db.transaction(async (tx) => {
        await lockKey(tx, `sms:phone:${phone}`)
        return verifyCode(tx, phone, 'step_up', code, now, memberId)
      })
      if (!result.ok) throw result.error
    },

    /** Development only: recent codes from the console provider's outbox (empty for other providers). */
    outbox(phone?: string) {
      if (!deps.config.devOutbox) return []
      return sms.outbox?.list(phone) ?? []
    },
  }
}

export type AuthService = ReturnType<typeof createAuthService>
