import crypto from 'node:crypto'
import type { Config } from '#server/config.ts'
import type { Db, DbOrTx, Tx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { jsSdkSignature } from '#server/integrations/wechat/js-sdk.ts'
import {
  WechatErrcodes,
  WechatError,
  type JsSdkSignature,
  type WechatClient,
  type WechatScope,
  type WechatUserInfo,
} from '#server/integrations/wechat/wechat-client.ts'
import {
  createWechatMember,
  memberByWechatOpenid,
  memberByWechatUnionid,
  memberOpenid,
  updateMemberWechat,
  wechatMemberById,
} from '#server/modules/members/members.service.ts'
import { issueSession, Platforms } from '#server/modules/sessions/session.service.ts'
import type { CredentialStore } from '#server/integrations/wechat/credentials.ts'
import { postgresCredentialStore } from './credentials.repository.ts'
import { deleteExpiredPayOpenids, findPayOpenid, upsertPayOpenid } from './pay-openid.repository.ts'
import * as repo from './wechat.repository.ts'

/** How long a started OAuth flow may take before its `state` dies (the person is on WeChat's consent screen). */
const OAUTH_STATE_TTL_MS = 10 * 60 * 1000
/**
 * The window of the per-address limit on OAuth starts (WECHAT_OAUTH_PER_IP_PER_10MIN). Counted from oauth_states,
 * which the cleanup keeps for longer than this (server/modules/auth/cleanup.ts).
 */
const OAUTH_START_WINDOW_MS = 10 * 60 * 1000
/** The cookie that binds a `state` to the browser that started the flow. */
export const BROWSER_NONCE_COOKIE = 'zx_wx_nonce'
export const BROWSER_NONCE_MAX_AGE_S = 30 * 60
const NICKNAME_MAX = 20
/** The open-id-only record of a base-scope return lives 6 hours (spec 4 and 9). */
const PAY_OPENID_TTL_MS = 6 * 3600 * 1000

export interface OauthReturn {
  code: string
  state: string
}

interface WechatIdentity {
  openid: string
  unionid: string | null
  profile: WechatUserInfo | null
  codeHash: string
}

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex')

/** A nonce cookie we set earlier looks like this; anything else is replaced. */
const noncePattern = /^[A-Za-z0-9_-]{43}$/

/** A nickname given by the system, not chosen by the person, so a WeChat nickname may replace it on binding. */
function isPlaceholderNickname(nickname: string) {
  return /^\s*$/.test(nickname) || /^(用户|学员|微信用户)[\d*]{0,11}$/.test(nickname.trim())
}

/** WeChat nicknames may carry control characters and run long; members get a clean, bounded one. */
function cleanNickname(raw: string | undefined, openid: string) {
  // eslint-disable-next-line no-control-regex
  const cleaned = [...(raw ?? '').replace(/[\u0000-\u001f\u007f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g, '').trim()]
    .slice(0, NICKNAME_MAX)
    .join('')
  return cleaned || `微信用户${openid.slice(-4)}`
}

function cleanAvatar(url: string | undefined) {
  return url && /^https?:\/\/\S+$/.test(url) && url.length <= 500 ? url : null
}

/**
 * Turns a failed WeChat call into the answer the member sees; the WeChat error stays attached as the cause for the
 * log (wechat.routes.ts logs it), never in the response.
 */
function wechatFailure(err: unknown): AppError {
  if (!(err instanceof WechatError)) throw err
  const E = WechatErrcodes
  let failure: AppError
  switch (err.errcode) {
    case E.invalidCode:
    case E.missingCode:
      failure = new AppError(Codes.WechatCodeInvalid, '微信授权码无效，请重新授权')
      break
    case E.codeBeenUsed:
      failure = new AppError(Codes.WechatCodeInvalid, '微信授权码已使用，请重新授权')
      break
    case E.codeExpired:
      failure = new AppError(Codes.WechatCodeInvalid, '微信授权码已过期，请重新授权')
      break
    case E.accessTokenExpired:
    case E.invalidCredential:
    case E.invalidAccessToken:
    case E.invalidOpenid:
      failure = new AppError(Codes.WechatCodeInvalid)
      break
    case E.invalidAppid:
    case E.invalidAppsecret:
    case E.missingAppid:
    case E.missingAppsecret:
    case E.invalidGrantType:
    case E.ipNotWhitelisted:
    case E.apiUnauthorized:
      failure = new AppError(Codes.WechatFailed, '微信登录配置有误，请联系客服')
      break
    case E.systemBusy:
    case E.apiFreqOutOfLimit:
      failure = new AppError(Codes.WechatFailed, '微信服务繁忙，请稍后重试')
      break
    default:
      failure = new AppError(Codes.WechatFailed)
  }
  failure.cause = err
  return failure
}

export interface WechatServiceDeps {
  db: Db
  config: Config
  wechat: WechatClient
  now: () => Date
}

/**
 * The store of WeChat's access token and JS-SDK ticket shared by every process on this database (the WeChat
 * adapter's `credentials`): one process refreshes them, all use them.
 */
export function sharedWechatCredentials(db: Db): CredentialStore {
  return postgresCredentialStore(db)
}

/**
 * The openid JSAPI pay may use for a member who has no WeChat identity of their own: the one their last
 * base-scope round trip gave (POST /wx_get_openid while signed in), for 6 hours. Null when none or expired.
 */
export function payOpenid(db: DbOrTx, memberId: number, now: Date) {
  return findPayOpenid(db, memberId, now)
}

/** Deletes up to `limit` OAuth states that expired before `before`; how many (the sign-in cleanup, in batches). */
export function pruneExpiredOauthStates(db: DbOrTx, before: Date, limit: number) {
  return repo.deleteExpiredOauthStates(db, before, limit)
}

/**
 * Deletes up to `limit` JSAPI pay openids that expired before `before` (the sign-in cleanup, in batches): once
 * expired they are never used (`payOpenid`), and an openid is personal data not to keep longer than its use.
 */
export function pruneExpiredPayOpenids(db: DbOrTx, before: Date, limit: number) {
  return deleteExpiredPayOpenids(db, before, limit)
}

/** Deletes up to `limit` records of OAuth codes used before `before`; how many. */
export function pruneUsedOauthCodes(db: DbOrTx, before: Date, limit: number) {
  return repo.deleteOldOauthCodes(db, before, limit)
}

/** WeChat sign-in: the OAuth start, the code exchanges of spec 7 and the JS-SDK share signature. */
export function createWechatService({ db, config, wechat, now }: WechatServiceDeps) {
  /** Uses the state and the code up (each works once), then asks WeChat who this is. */
  async function exchange(
    input: OauthReturn,
    browserNonce: string | undefined,
    wantProfile: boolean,
  ): Promise<WechatIdentity | { snapshot: true }> {
    if (!browserNonce || !noncePattern.test(browserNonce)) throw new AppError(Codes.OauthStateInvalid)
    const at = now()
    const state = await repo.consumeOauthState(db, {
      stateHash: sha256(input.state),
      browserHash: sha256(browserNonce),
      now: at,
    })
    if (!state) throw new AppError(Codes.OauthStateInvalid)
    const codeHash = sha256(`${wechat.appId}:${input.code}`)
    if (!(await repo.claimOauthCode(db, codeHash, at)))
      throw new AppError(Codes.WechatCodeInvalid, '微信授权码已使用，请重新授权')
    try {
      const token = await wechat.exchangeCode(input.code)
      // Snapshot mode: the openid is a virtual one; it is never stored, bound or used to pay.
      if (token.isSnapshotUser) return { snapshot: true as const }
      const canReadProfile = token.scope.split(',').includes('snsapi_userinfo')
      const profile = wantProfile && canReadProfile ? await wechat.userInfo(token.accessToken, token.openid) : null
      return { openid: token.openid, unionid: token.unionid ?? profile?.unionid ?? null, profile, codeHash }
    } catch (err) {
      throw wechatFailure(err)
    }
  }

  /** resolveIdentity for every exchange: a snapshot-mode return is refused (446) before anything is kept. */
  async function resolveIdentity(
    input: OauthReturn,
    browserNonce: string | undefined,
    wantProfile: boolean,
  ): Promise<WechatIdentity> {
    const id = await exchange(input, browserNonce, wantProfile)
    if ('snapshot' in id) throw new AppError(Codes.WechatSnapshot)
    return id
  }

  /** The member this WeChat user is: matched by unionid first, then openid; created from the profile if none. */
  async function findOrCreateMember(tx: Tx, id: WechatIdentity) {
    await repo.lockWechatIdentity(tx, id.openid)
    const byUnionid = id.unionid ? await memberByWechatUnionid(tx, id.unionid) : undefined
    const byOpenid = await memberByWechatOpenid(tx, id.openid)
    const member = byUnionid ?? byOpenid
    const at = now()
    if (!member) {
      return createWechatMember(tx, {
        nickname: cleanNickname(id.profile?.nickname, id.openid),
        avatarUrl: cleanAvatar(id.profile?.headimgurl),
        gender: id.profile?.sex === 1 || id.profile?.sex === 2 ? id.profile.sex : 0,
        wxOpenid: id.openid,
        wxUnionid: id.unionid,
        now: at,
      })
    }
    // Fill in what this member lacks, never taking an identifier another member already holds.
    await updateMemberWechat(tx, member.id, {
      ...(id.unionid && !member.wxUnionid && !byUnionid ? { wxUnionid: id.unionid } : {}),
      ...(member.wxOpenid !== id.openid && !byOpenid ? { wxOpenid: id.openid } : {}),
      now: at,
    })
    return member.id
  }

  return {
    /**
     * Starts an OAuth flow: a single-use `state` bound to this browser's nonce cookie, and WeChat's authorize URL
     * that returns to `path` on this site with `loginCallback` (true for the user-info scope, spec 4 and 7), at the
     * address the visitor used (`origin`: request.visitorOrigin, a trusted host or PUBLIC_URL; WeChat itself accepts
     * only the domains registered for 网页授权, so in production TRUSTED_HOSTS lists none but those).
     * Refused with 429 when this client address started too many flows in the last 10 minutes.
     */
    async startOauth(input: {
      scope: WechatScope
      path: string
      login1?: string
      browserNonce?: string
      ip: string
      origin: string
    }) {
      const target = new URL(input.path, input.origin)
      if (target.origin !== input.origin)
        throw new AppError(Codes.BadRequest, '页面路径只能是本站的页面', { field: 'path' })
      for (const p of ['code', 'state', 'loginCallback', 'login1']) target.searchParams.delete(p)
      if (input.login1) target.searchParams.set('login1', input.login1)
      target.searchParams.set('loginCallback', String(input.scope === 'snsapi_userinfo'))
      target.hash = ''
      const returnPath = `${target.pathname}${target.search}`

      const browserNonce =
        input.browserNonce && noncePattern.test(input.browserNonce)
          ? input.browserNonce
          : crypto.randomBytes(32).toString('base64url')
      // WeChat accepts only letters and digits in `state`, at most 128 bytes.
      const state = crypto.randomBytes(16).toString('hex')
      const at = now()
      // Every start writes a row: one address may start only so many flows in the window. Counted in PostgreSQL
      // under the address's lock, so the limit holds across processes and concurrent requests.
      const wait = await db.transaction(async (tx) => {
        await repo.lockOauthStarts(tx, input.ip)
        const recent = await repo.oauthStartStats(tx, input.ip, new Date(at.getTime() - OAUTH_START_WINDOW_MS))
        if (recent.total >= config.wechat.oauthPerIpPer10Min) {
          const freeAt = (recent.oldest ?? at).getTime() + OAUTH_START_WINDOW_MS
          return Math.max(1, Math.ceil((freeAt - at.getTime()) / 60_000))
        }
        await repo.insertOauthState(tx, {
          stateHash: sha256(state),
          browserHash: sha256(browserNonce),
          scope: input.scope,
          returnPath,
          ip: input.ip,
          createdAt: at,
          expiresAt: new Date(at.getTime() + OAUTH_STATE_TTL_MS),
        })
        return null
      })
      if (wait !== null) throw new AppError(Codes.TooManyRequests, `当前网络发起微信登录太频繁，请 ${wait} 分钟后再试`)
      // WeChat checks the parameter order, and the fragment is required.
      const query = new URLSearchParams({
        appid: wechat.appId,
        redirect_uri: `${input.origin}${returnPath}`,
        response_type: 'code',
        scope: input.scope,
        state,
      })
      return {
        location: `${config.wechat.openBase}/connect/oauth2/authorize?${query.toString()}#wechat_redirect`,
        browserNonce,
      }
    },

    /** POST /wx_login: signs the WeChat user in (creating the member on first sight) with a platform-3 session. */
    async login(input: OauthReturn, browserNonce: string | undefined) {
      const id = await resolveIdentity(input, browserNonce, true)
      return db.transaction(async (tx) => {
        const memberId = await findOrCreateMember(tx, id)
        await repo.setOauthCodeMember(tx, id.codeHash, memberId)
        const session = await issueSession(tx, memberId, Platforms.wechat, now())
        return { ...session, openid: id.openid }
      })
    },

    /**
     * POST /wx_get_openid: tells the browser its openid; no session, no member, nothing granted. For a signed-in
     * member (the base-scope round trip after a phone login, or at checkout) the openid is also kept for 6 hours
     * so that JSAPI pay works (spec 4: "stores only the open id, valid 6 hours").
     */
    async openid(input: OauthReturn, browserNonce: string | undefined, memberId: number | null = null) {
      const id = await resolveIdentity(input, browserNonce, false)
      if (memberId !== null) {
        const at = now()
        await upsertPayOpenid(db, {
          memberId,
          openid: id.openid,
          at,
          expiresAt: new Date(at.getTime() + PAY_OPENID_TTL_MS),
        })
      }
      return { openid: id.openid }
    },

    /** POST /wx/code2unionid: the unionid (null when the account is not on the Open Platform) and the openid. */
    async unionid(input: OauthReturn, browserNonce: string | undefined) {
      const id = await resolveIdentity(input, browserNonce, true)
      return { unionid: id.unionid, openid: id.openid }
    },

    /**
     * POST /authWechatInfo: binds this WeChat identity to the signed-in member, taking the WeChat nickname and
     * avatar only where the member has none of their own. Refused when another member holds the identity or this
     * member is already bound to another WeChat user.
     */
    async bind(memberId: number, input: OauthReturn, browserNonce: string | undefined) {
      const id = await resolveIdentity(input, browserNonce, true)
      return db.transaction(async (tx) => {
        await repo.lockWechatIdentity(tx, id.openid)
        const me = await wechatMemberById(tx, memberId)
        if (!me) throw new AppError(Codes.NotLoggedIn)
        const byUnionid = id.unionid ? await memberByWechatUnionid(tx, id.unionid) : undefined
        const byOpenid = await memberByWechatOpenid(tx, id.openid)
        if ((byUnionid && byUnionid.id !== me.id) || (byOpenid && byOpenid.id !== me.id))
          throw new AppError(Codes.WechatTaken)
        const otherUser =
          id.unionid && me.wxUnionid ? me.wxUnionid !== id.unionid : me.wxOpenid !== null && me.wxOpenid !== id.openid
        if (otherUser) throw new AppError(Codes.WechatAlreadyBound)
        const nickname =
          isPlaceholderNickname(me.nickname) && id.profile?.nickname
            ? cleanNickname(id.profile.nickname, id.openid)
            : undefined
        const avatarUrl = !me.avatarUrl ? cleanAvatar(id.profile?.headimgurl) : null
        await updateMemberWechat(tx, me.id, {
          wxOpenid: id.openid,
          ...(id.unionid ? { wxUnionid: id.unionid } : {}),
          ...(nickname ? { nickname } : {}),
          ...(avatarUrl ? { avatarUrl } : {}),
          now: now(),
        })
        await repo.setOauthCodeMember(tx, id.codeHash, me.id)
        return {
          openid: id.openid,
          unionid: id.unionid,
          nickname: nickname ?? me.nickname,
          avatar: avatarUrl ?? me.avatarUrl,
        }
      })
    },

    /**
     * GET /wechat/share: the JS-SDK `wx.config` signature for a page of this site at the address the visitor used
     * (`origin`, as for startOauth), never for another site.
     */
    async shareSignature(pageUrl: string, origin: string): Promise<JsSdkSignature> {
      let parsed: URL
      try {
        parsed = new URL(pageUrl)
      } catch {
        throw new AppError(Codes.BadRequest, '页面地址格式不正确', { field: 'url' })
      }
      if (parsed.origin !== origin) throw new AppError(Codes.BadRequest, '页面地址只能是本站的页面', { field: 'url' })
      let ticket: string
      try {
        ticket = await wechat.jsapiTicket()
      } catch (err) {
        throw wechatFailure(err)
      }
      const url = pageUrl.split('#')[0]!
      const timestamp = Math.floor(now().getTime() / 1000)
      const nonceStr = crypto
        .randomBytes(12)
        .toString('base64url')
        .replace(/[^A-Za-z0-9]/g, 'x')
      return {
        appId: wechat.appId,
        timestamp,
        nonceStr,
        signature: jsSdkSignature({ ticket, nonceStr, timestamp, url }),
      }
    },

    /**
     * GET /wechat/subscribe: whether the member follows the Official Account (WeChat's user info `subscribe`), or
     * null when WeChat cannot tell because the member never signed in through WeChat (no openid of ours).
     */
    async subscribed(memberId: number): Promise<boolean | null> {
      const openid = await memberOpenid(db, memberId)
      if (!openid) return null
      try {
        return await wechat.subscribed(openid)
      } catch (err) {
        throw wechatFailure(err)
      }
    },
  }
}

export type WechatService = ReturnType<typeof createWechatService>

/** Forgets a member's WeChat Pay openids (account deletion, issue 10 §5). */
export { deleteMemberPayOpenids as eraseMemberPayOpenids } from './wechat-privacy.repository.ts'
