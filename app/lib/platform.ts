/**
 * Platform codes of spec section 9, sent with every login: 1 desktop browser, 2 mobile browser, 3 WeChat's
 * in-app browser. WeCom (企业微信, "wxwork") also says MicroMessenger in its user agent but is not WeChat: its
 * pages cannot use WeChat's OAuth, so it counts as the mobile or desktop browser it runs on.
 */
export const Platform = { desktop: 1, mobile: 2, wechat: 3 } as const
export type PlatformCode = (typeof Platform)[keyof typeof Platform]

function isWecom(userAgent: string): boolean {
  return /wxwork/i.test(userAgent)
}

/** WeChat's in-app browser, and not WeCom. */
export function isWechat(userAgent: string): boolean {
  return /MicroMessenger/i.test(userAgent) && !isWecom(userAgent)
}

function isMobile(userAgent: string): boolean {
  return /Android|iPhone|iPad|iPod|Mobile|HarmonyOS|OpenHarmony|Windows Phone/i.test(userAgent)
}

export function detectPlatform(userAgent: string): PlatformCode {
  if (isWechat(userAgent)) return Platform.wechat
  if (isMobile(userAgent)) return Platform.mobile
  return Platform.desktop
}

/** The platform of this browser; the server render (no browser) answers mobile, the common case. */
export function currentPlatform(): PlatformCode {
  if (typeof navigator === 'undefined') return Platform.mobile
  return detectPlatform(navigator.userAgent)
}

export function inWechat(): boolean {
  return typeof navigator !== 'undefined' && isWechat(navigator.userAgent)
}
