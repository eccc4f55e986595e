/**
 * What Zixue needs from WeChat (Official Account web OAuth and the JS-SDK). The real adapter speaks HTTP to
 * api.weixin.qq.com or to the local simulator (wechat-simulator.ts); both answer in WeChat's wire format.
 */
export interface WechatClient {
  readonly appId: string
  /** `GET /sns/oauth2/access_token`: trades a one-time OAuth code for the user's openid (and unionid if bound). */
  exchangeCode(code: string): Promise<WechatOauthToken>
  /** `GET /sns/userinfo`: needs a token obtained with the `snsapi_userinfo` scope. */
  userInfo(accessToken: string, openid: string): Promise<WechatUserInfo>
  /** The JS-SDK `jsapi_ticket`, cached with its client-credential access token until shortly before expiry. */
  jsapiTicket(): Promise<string>
  /**
   * `GET /cgi-bin/user/info` with the client-credential token: whether this openid (of our Official Account) follows
   * it (`subscribe` 1). WeChat's reference documents `subscribe` as 0 when the user does not follow ("拉取不到其余信息").
   */
  subscribed(openid: string): Promise<boolean>
}

export type WechatScope = 'snsapi_base' | 'snsapi_userinfo'

export interface WechatOauthToken {
  accessToken: string
  expiresIn: number
  refreshToken: string
  openid: string
  /** WeChat sends the granted scopes comma-separated. */
  scope: string
  unionid?: string
  /**
   * `is_snapshotuser: 1`: a page opened from Moments in snapshot mode ("快照页模式") before the user tapped
   * "使用完整服务"; the openid is a virtual one (WeChat's sns/oauth2/access_token reference lists the field, sent
   * only with the value 1). Not confirmed from the official docs: whether the virtual openid is stable between visits.
   */
  isSnapshotUser?: boolean
}

export interface WechatUserInfo {
  openid: string
  nickname: string
  /** 1 male, 2 female, 0 unknown. */
  sex: number
  province: string
  city: string
  country: string
  headimgurl: string
  privilege: string[]
  unionid?: string
}

/**
 * A failed WeChat call. `errcode` is WeChat's own code when WeChat answered one, or null when the call did not get
 * a usable answer (network, timeout, non-JSON body, unexpected status).
 */
export class WechatError extends Error {
  readonly errcode: number | null
  readonly errmsg: string

  constructor(errcode: number | null, errmsg: string) {
    super(errcode === null ? `WeChat call failed: ${errmsg}` : `WeChat error ${errcode}: ${errmsg}`)
    this.name = 'WechatError'
    this.errcode = errcode
    this.errmsg = errmsg
  }
}

/** The WeChat error codes this project handles by name (the simulator answers with the same ones). */
export const WechatErrcodes = {
  systemBusy: -1,
  invalidCredential: 40001,
  invalidGrantType: 40002,
  invalidOpenid: 40003,
  invalidAppid: 40013,
  invalidAccessToken: 40014,
  invalidCode: 40029,
  invalidAppsecret: 40125,
  codeBeenUsed: 40163,
  ipNotWhitelisted: 40164,
  missingAccessToken: 41001,
  missingAppid: 41002,
  missingAppsecret: 41004,
  missingCode: 41008,
  accessTokenExpired: 42001,
  codeExpired: 42003,
  apiUnauthorized: 48001,
  apiFreqOutOfLimit: 45009,
} as const

/** JS-SDK `wx.config` values for one page address. */
export interface JsSdkSignature {
  appId: string
  timestamp: number
  nonceStr: string
  signature: string
}
