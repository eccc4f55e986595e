import { describe, expect, it } from 'vitest'
import { Platform, detectPlatform, isWechat } from './platform.ts'

const ua = {
  desktopChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
  harmony:
    'Mozilla/5.0 (Phone; OpenHarmony 4.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0 Safari/537.36 ArkWeb/4.1 Mobile',
  wechatIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.61(0x18003d2f) NetType/WIFI Language/zh_CN',
  wechatAndroid:
    'Mozilla/5.0 (Linux; Android 14; V2309A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Mobile Safari/537.36 XWEB/1160117 MMWEBSDK/20240404 MicroMessenger/8.0.49.2600(0x28003133) WeChat/arm64 NetType/WIFI Language/zh_CN',
  wechatDesktop:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/81.0 Safari/537.36 NetType/WIFI MicroMessenger/7.0.20.1781(0x6700143B) WindowsWechat(0x63090a13)',
  wecomIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 wxwork/4.1.26 MicroMessenger/7.0.1 Language/zh ColorScheme/Light',
  wecomDesktop:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/108.0 Safari/537.36 wxwork/4.1.22 (MicroMessenger/6.2) WindowsWechat',
}

describe('detectPlatform (spec 9: 1 desktop, 2 mobile, 3 WeChat; WeCom is not WeChat)', () => {
  it.each([
    ['desktop Chrome', ua.desktopChrome, Platform.desktop],
    ['desktop Safari', ua.macSafari, Platform.desktop],
    ['iPhone Safari', ua.iphoneSafari, Platform.mobile],
    ['Android Chrome', ua.android, Platform.mobile],
    ['HarmonyOS', ua.harmony, Platform.mobile],
    ['WeChat on iOS', ua.wechatIos, Platform.wechat],
    ['WeChat on Android', ua.wechatAndroid, Platform.wechat],
    ['WeChat for Windows', ua.wechatDesktop, Platform.wechat],
    ['WeCom on iOS', ua.wecomIos, Platform.mobile],
    ['WeCom for Windows', ua.wecomDesktop, Platform.desktop],
    ['empty', '', Platform.desktop],
  ])('%s → %i', (_name, userAgent, code) => {
    expect(detectPlatform(userAgent)).toBe(code)
  })

  it('does not treat WeCom as WeChat', () => {
    expect(isWechat(ua.wecomIos)).toBe(false)
    expect(isWechat(ua.wechatIos)).toBe(true)
  })
})
