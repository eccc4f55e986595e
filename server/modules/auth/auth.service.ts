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
} from '#server/modules/members/members.service.ts'
import { mergeRefusalFor } from '#server/modules/members/members-merge.service.ts'
import { endSession, issueSession, Platforms } from '#server/modules/sessions/session.service.ts'
import {
  consumeCode,
  consumeCodeById,
  consumeLiveCodes,
  insertCode,
  insertLoginFailure,
  ipSendStats,
  latestLiveCode,
  lockKey,
  phoneSendStats,
  recentLoginFailures,
  recordWrongAttempt,
} from './auth.repository.ts'
import { hashSmsCode, newSmsCode, SignInSlowdown, signInAllowedFrom, SmsRules, smsCodeMatches } from './auth.rules.ts'
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
  /**
   * Whether someone bought with this phone outside the site (a platform order reported with it): such a phone may
   * sign in in purchaser mode (/ke2) before it has a member, which the sign-in then creates.
   */
  boughtElsewhere?: (tx: DbOrTx, phone: string) => Promise<boolean>
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
      // Confirmations by a signed-in member (staff step-up, a member's export or deletion) count apart from sign-in
      // codes, so confirming right after signing in does not wait out the resend gap.
      const confirming = purpose === 'step_up' || purpose === 'account' || purpose === 'contract'
      const stats = await phoneSendStats(tx, phone, ctx.ip, dayStart, hourAgo, confirming)
      if (stats.lastAt && now.getTime() - stats.lastAt.getTime() < SmsRules.resendGapMs) {
        const seconds = Math.ceil((SmsRules.resendGapMs - (now.getTime() - stats.lastAt.getTime())) / 1000)
        return refuse(Codes.SmsTooFrequent, `验证码发送太频繁，请 ${seconds} 秒后再试`)
      }
      if (stats.dayCountHere >= SmsRules.perPhoneAndAddressPerDay)
        return refuse(Codes.SmsTooFrequent, '今日验证码发送次数已达上限，请明天再试')
      if (stats.dayCount >= SmsRules.perPhonePerDay)
        return refuse(Codes.SmsTooFrequent, '该手机号今日验证码发送次数已达上限，请使用微信登录或明天再试')
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
    gate?: () => Promise<Refusal | null>,
  ): Promise<Refusal | { ok: true }> {
    const row = await latestLiveCode(tx, phone, purpose)
    if (!row || row.expiresAt <= now) return refuse(Codes.CodeExpired)
    // A live code is there to try: whether this try must wait is asked only now, so a dead code says so (406).
    const refusal = await gate?.()
    if (refusal) return refusal
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

  /** 429 with the wait while recent wrong codes slow this phone and address down (SignInSlowdown), else null. */
  async function slowedDown(tx: DbOrTx, phone: string, ip: string, now: Date): Promise<Refusal | null> {
    const since = new Date(now.getTime() - SignInSlowdown.windowMs)
    const from = signInAllowedFrom(await recentLoginFailures(tx, phone, ip, since), now)
    if (!from) return null
    const seconds = Math.max(1, Math.ceil((from.getTime() - now.getTime()) / 1000))
    const wait = seconds > 90 ? `${Math.ceil(seconds / 60)} 分钟` : `${seconds} 秒`
    const error = new AppError(Codes.TooManyRequests, `验证码错误次数较多，请 ${wait}后再试`, undefined, {
      retryAfterSeconds: seconds,
    })
    return { ok: false, error }
  }

  /** Forced purchaser mode (`ke2`): only phones of members marked as purchasers, or that bought on a platform. */
  async function purchaserOnly(tx: DbOrTx, phone: string) {
    const member = await memberByPhone(tx, phone)
    if (member?.isPurchaser || (await deps.boughtElsewhere?.(tx, phone))) return null
    return refuse(Codes.PhoneNotAllowed)
  }

  /** A staff member's phone (step-up codes go there); a member without one must bind it first. */
  async function ownPhone(memberId: number, db: DbOrTx = deps.db) {
    const phone = (await memberPhones(db, [memberId])).get(memberId)
    if (!phone) throw new AppError(Codes.Forbidden, '请先在个人中心绑定手机号，再进行需要短信验证的操作')
    return phone
  }

  /** A code to the member's own phone for `purpose` (same limits as sign-in codes); answers the phone masked. */
  async function sendOwnCode(memberId: number, purpose: SmsPurpose, ctx: RequestContext) {
    const phone = await ownPhone(memberId)
    await issueCode(phone, purpose, ctx, async () => null, memberId)
    return { phone: maskPhone(phone) }
  }

  /**
   * Checks a code sent to the member's own phone, in the caller's transaction after taking the phone's lock: a
   * refusal is returned, not thrown, so a wrong try is recorded when the caller commits.
   */
  async function verifyOwnCode(tx: Tx, memberId: number, purpose: SmsPurpose, rawCode: string, now: Date) {
    const phone = await ownPhone(memberId, tx)
    const code = readCode(rawCode)
    await lockKey(tx, `sms:phone:${phone}`)
    const verified = await verifyCode(tx, phone, purpose, code, now, memberId)
    return verified.ok ? { ok: true as const, phone } : verified
  }

  return {
    /**
     * POST /send_code. The answer is the same whether the phone belongs to a member or not; in purchaser mode
     * only purchasers' phones get a code. Wrong codes never stop a phone from getting a new one.
     */
    async sendLoginCode(input: { phone: string; ke2: boolean }, ctx: RequestContext) {
      await issueCode(input.phone, 'login', ctx, async (tx, phone) => (input.ke2 ? purchaserOnly(tx, phone) : null))
    },

    /**
     * POST /login: checks the slow-down of recent wrong codes, purchaser mode and the code in one transaction,
     * creates the member on a first login and issues a new session. Wrong codes are recorded as failed logins with
     * the address; the phone's advisory lock serialises concurrent tries, so a code takes at most five.
     */
    async login(input: { phone: string; phone_code: string; platform?: number; ke2: boolean }, ctx: RequestContext) {
      const phone = normalizePhone(input.phone)
      const code = readCode(input.phone_code)
      const now = deps.now()
      const result = await db.transaction(async (tx) => {
        await lockKey(tx, `sms:phone:${phone}`)
        if (input.ke2) {
          const refusal = await purchaserOnly(tx, phone)
          if (refusal) return refusal
        }
        const verified = await verifyCode(tx, phone, 'login', code, now, undefined, () =>
          slowedDown(tx, phone, ctx.ip, now),
        )
        if (!verified.ok) {
          // Failures are written in this same transaction, which commits: the refusal is returned, not thrown.
          if (verified.error.entry === Codes.CodeWrong) await insertLoginFailure(tx, phone, ctx.ip, now)
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

    /**
     * POST /bind_phone_send_code: a code to bind a phone. A phone another member holds gets a code too when the
     * two members may become one (bind phone then merges them, server/use-cases/bind-phone.ts); `merge` says so.
     */
    async sendBindCode(memberId: number, input: { phone: string }, ctx: RequestContext) {
      let merge = false
      await issueCode(
        input.phone,
        'bind',
        ctx,
        async (tx, phone) => {
          const owner = await memberByPhone(tx, phone)
          if (owner && owner.id === memberId) return refuse(Codes.Conflict, '你已绑定该手机号')
          if (owner) {
            const refusal = await mergeRefusalFor(tx, owner.id, memberId)
            if (refusal) return refuse(Codes.PhoneTaken, refusal)
            merge = true
          }
          return null
        },
        memberId,
      )
      return { merge }
    },

    /**
     * The code step of POST /bind_phone (server/use-cases/bind-phone.ts runs the rest in the same transaction):
     * takes the phone's lock, checks the code the member asked for. A refusal is returned, not thrown, so a wrong
     * try is recorded when the caller commits.
     */
    async verifyBindCode(tx: Tx, memberId: number, input: { phone: string; phone_code: string }, now: Date) {
      const phone = normalizePhone(input.phone)
      const code = readCode(input.phone_code)
      await lockKey(tx, `sms:phone:${phone}`)
      const verified = await verifyCode(tx, phone, 'bind', code, now, memberId)
      return verified.ok ? { ok: true as const, phone } : verified
    },

    /** POST /api/admin/step-up/send_code: a code to the staff member's own phone, to confirm a sensitive action. */
    sendStepUpCode(memberId: number, ctx: RequestContext) {
      return sendOwnCode(memberId, 'step_up', ctx)
    },

    /** POST /api/admin/step-up: checks the code (wrong tries count and kill it as for sign-in). */
    async verifyStepUp(memberId: number, rawCode: string) {
      const now = deps.now()
      const result = await db.transaction((tx) => verifyOwnCode(tx, memberId, 'step_up', rawCode, now))
      if (!result.ok) throw result.error
    },

    /**
     * POST /api/account/send_code (issue 10 §5): a code to the member's own phone, to confirm exporting or deleting
     * their data. Same limits as sign-in codes.
     */
    sendAccountCode(memberId: number, ctx: RequestContext) {
      return sendOwnCode(memberId, 'account', ctx)
    },

    /**
     * The code step of a data export or an account deletion, in the caller's transaction (a wrong try is recorded
     * when it commits): returned, not thrown.
     */
    verifyAccountCode(tx: Tx, memberId: number, rawCode: string, now: Date) {
      return verifyOwnCode(tx, memberId, 'account', rawCode, now)
    },

    /**
     * A code to the member's own phone to sign a contract (issue 15 §2), and its check in the caller's transaction
     * (returned, not thrown, so a wrong try is recorded when it commits).
     */
    sendContractCode(memberId: number, ctx: RequestContext) {
      return sendOwnCode(memberId, 'contract', ctx)
    },
    verifyContractCode(tx: Tx, memberId: number, rawCode: string, now: Date) {
      return verifyOwnCode(tx, memberId, 'contract', rawCode, now)
    },

    /** Development only: recent codes from the console provider's outbox (empty for other providers). */
    outbox(phone?: string) {
      if (!deps.config.devOutbox) return []
      return sms.outbox?.list(phone) ?? []
    },
  }
}

export type AuthService = ReturnType<typeof createAuthService>
