import { describe, expect, it } from 'vitest'
import { chooseEngine, type EngineEnv } from './engine.ts'

const UA = {
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
  iphoneWechat:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.61(0x18003d2f) NetType/WIFI Language/zh_CN',
  androidWechat:
    'Mozilla/5.0 (Linux; Android 14; V2309A Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.103 Mobile Safari/537.36 XWEB/1300289 MMWEBSDK/20241103 MicroMessenger/8.0.55.2780(0x28003737) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN',
  androidChrome:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Mobile Safari/537.36',
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15',
  macChrome:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36',
  linuxChromium:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
  oldAndroid:
    'Mozilla/5.0 (Linux; U; Android 4.0.3; zh-cn; HTC) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30',
}

const cases: [string, EngineEnv, ReturnType<typeof chooseEngine>][] = [
  [
    'iPhone Safari without Media Source (iOS < 17.1)',
    { nativeHls: true, mediaSource: false, userAgent: UA.iphoneSafari },
    'native',
  ],
  [
    'iPhone Safari with ManagedMediaSource',
    { nativeHls: true, mediaSource: true, userAgent: UA.iphoneSafari },
    'native',
  ],
  ['WeChat on iOS', { nativeHls: true, mediaSource: false, userAgent: UA.iphoneWechat }, 'native'],
  ['Safari on the Mac', { nativeHls: true, mediaSource: true, userAgent: UA.macSafari }, 'native'],
  [
    'WeChat on Android (XWeb), claiming native HLS',
    { nativeHls: true, mediaSource: true, userAgent: UA.androidWechat },
    'hlsjs',
  ],
  [
    'Chrome on Android, claiming native HLS',
    { nativeHls: true, mediaSource: true, userAgent: UA.androidChrome },
    'hlsjs',
  ],
  ['Chrome on the Mac', { nativeHls: false, mediaSource: true, userAgent: UA.macChrome }, 'hlsjs'],
  [
    'desktop Chromium 156 (native HLS and Media Source)',
    { nativeHls: true, mediaSource: true, userAgent: UA.linuxChromium },
    'hlsjs',
  ],
  [
    'an old Android browser with native HLS only',
    { nativeHls: true, mediaSource: false, userAgent: UA.oldAndroid },
    'native',
  ],
  ['a browser with neither', { nativeHls: false, mediaSource: false, userAgent: UA.oldAndroid }, 'none'],
]

describe('chooseEngine', () => {
  it.each(cases)('%s', (_name, env, expected) => {
    expect(chooseEngine(env)).toBe(expected)
  })
})
