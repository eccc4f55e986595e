/**
 * How a browser plays our HLS (AES-128, signed URLs): its own HLS support, or hls.js on Media Source.
 *
 * - Apple devices (iPhone, iPad, Safari on the Mac, and WeChat on iOS, which is Safari's engine) play HLS natively
 *   and best that way: full-screen, AirPlay and the lock screen work, and iPhones before iOS 17.1 have no Media
 *   Source at all.
 * - Everything else with Media Source gets hls.js, even when it claims native HLS: Android's Chrome and recent
 *   desktop Chromium answer "maybe" to canPlayType, but hls.js is what behaves the same everywhere there
 *   (WeChat's X5/XWeb on Android included).
 * - Native HLS without Media Source (old Android browsers) is still better than nothing.
 */
export type Engine = 'native' | 'hlsjs' | 'none'

export interface EngineEnv {
  /** `video.canPlayType('application/vnd.apple.mpegurl') !== ''` */
  nativeHls: boolean
  /** `MediaSource` or `ManagedMediaSource` exists. */
  mediaSource: boolean
  userAgent: string
}

function isAppleDevice(userAgent: string) {
  if (/iPhone|iPad|iPod/i.test(userAgent)) return true
  // Safari on the Mac (and iPadOS, which says Macintosh); Chrome, Edge and Firefox on the Mac say so too.
  return (
    /Macintosh/i.test(userAgent) &&
    /Safari/i.test(userAgent) &&
    !/Chrome|Chromium|CriOS|Edg|Firefox|FxiOS/i.test(userAgent)
  )
}

export function chooseEngine(env: EngineEnv): Engine {
  if (env.nativeHls && (isAppleDevice(env.userAgent) || !env.mediaSource)) return 'native'
  if (env.mediaSource) return 'hlsjs'
  if (env.nativeHls) return 'native'
  return 'none'
}

/** The environment of this browser, for chooseEngine. */
export function browserEnv(video: HTMLVideoElement): EngineEnv {
  const w = window as typeof window & { ManagedMediaSource?: unknown }
  return {
    nativeHls: video.canPlayType('application/vnd.apple.mpegurl') !== '',
    mediaSource: typeof w.MediaSource === 'function' || typeof w.ManagedMediaSource === 'function',
    userAgent: navigator.userAgent,
  }
}
