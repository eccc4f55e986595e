import { describe, expect, it } from 'vitest'
import { ApiError } from './api.ts'
import { createAuthStore, OPENID_KEY, OPENID_RECORD_KEY, TOKEN_KEY } from './auth-store.ts'
import { memoryCookies, memoryStore } from './browser-storage.ts'
import {
  afterPhoneLoginInWechat,
  finishWechatReturn,
  isWechatBrowser,
  parseWechatReturn,
  safeReturnPath,
  startWechatLogin,
  wechatOauthUrl,
  type WechatReturnDeps,
} from './wechat-login.ts'

const UA = {
  wechatIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.61(0x18003d2f) NetType/WIFI Language/zh_CN',
  wechatAndroid:
    'Mozilla/5.0 (Linux; Android 14; V2304A Build/UP1A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.103 Mobile Safari/537.36 XWEB/1300289 MMWEBSDK/20241103 MMWEBID/1234 MicroMessenger/8.0.55.2780(0x28003737) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64',
  wecom:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 wxwork/4.1.30 MicroMessenger/7.0.1 Language/zh ColorScheme/Light',
  safari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
  desktop: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
}

describe('isWechatBrowser', () => {
  it.each([
    ['WeChat on iOS', UA.wechatIos, true],
    ['WeChat on Android', UA.wechatAndroid, true],
    ['WeCom (says MicroMessenger too)', UA.wecom, false],
    ['Safari on a phone', UA.safari, false],
    ['a desktop browser', UA.desktop, false],
    ['an empty user agent', '', false],
  ])('%s → %s', (_name, ua, expected) => {
    expect(isWechatBrowser(ua)).toBe(expected)
  })
})

describe('safeReturnPath', () => {
  it.each([
    ['/mine', '/mine'],
    ['/course/1.html?sp=a#c', '/course/1.html?sp=a#c'],
    ['  /vip ', '/vip'],
    ['', '/'],
    [null, '/'],
    ['//evil.example/x', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example/', '/'],
    ['javascript:alert(1)', '/'],
    ['mine', '/'],
    ['/a\nb', '/'],
    [`/${'a'.repeat(500)}`, '/'],
  ])('%j → %j', (input, expected) => {
    expect(safeReturnPath(input)).toBe(expected)
  })

  it('reduces a full address of this site to its path', () => {
    expect(safeReturnPath('https://zixue.test/mine?x=1', 'https://zixue.test')).toBe('/mine?x=1')
    expect(safeReturnPath('https://zixue.test.evil/mine', 'https://zixue.test')).toBe('/')
  })
})

describe('wechatOauthUrl and startWechatLogin', () => {
  it('asks the server to start the flow back to the given path', () => {
    expect(wechatOauthUrl('snsapi_userinfo', '/course/1.html?sp=a')).toBe(
      '/api/wechat/oauth?scope=snsapi_userinfo&path=%2Fcourse%2F1.html%3Fsp%3Da',
    )
    expect(wechatOauthUrl('snsapi_base', '/mine', 'x1')).toBe(
      '/api/wechat/oauth?scope=snsapi_base&path=%2Fmine&login1=x1',
    )
    expect(wechatOauthUrl('snsapi_userinfo', '//evil.example')).toBe('/api/wechat/oauth?scope=snsapi_userinfo&path=%2F')
  })

  it('navigates there', () => {
    const visited: string[] = []
    startWechatLogin('snsapi_userinfo', '/mine', null, (url) => visited.push(url))
    expect(visited).toEqual(['/api/wechat/oauth?scope=snsapi_userinfo&path=%2Fmine'])
  })
})

describe('parseWechatReturn', () => {
  it.each([
    ['/mine?loginCallback=true&code=c1&state=s1', false, 'login', '/mine'],
    // Signed in already (a phone login sent through /wechatLogin for login1): only the open id is kept.
    ['/mine?loginCallback=true&code=c1&state=s1', true, 'openid', '/mine'],
    ['/mine?loginCallback=false&code=c1&state=s1', false, 'openid', '/mine'],
    ['/mine?loginCallback=false&code=c1&state=s1', true, 'openid', '/mine'],
    // Refused on the consent page: WeChat returns the state only.
    ['/mine?loginCallback=true&state=s1', false, 'none', '/mine'],
    [
      '/course/1.html?sp=abc&loginCallback=true&code=c1&state=s1&login1=x#top',
      false,
      'login',
      '/course/1.html?sp=abc&login1=x#top',
    ],
  ])('%s (token stored: %s) → %s, address %s', (href, hasToken, action, cleanUrl) => {
    expect(parseWechatReturn(`https://zixue.test${href}`, hasToken)).toMatchObject({ action, cleanUrl })
  })

  it('leaves an address without loginCallback alone', () => {
    expect(parseWechatReturn('https://zixue.test/mine?code=abc&state=x', false)).toBeNull()
  })
})

describe('finishWechatReturn', () => {
  const NOW = 1_750_000_000_000

  function setup(answers: Record<string, unknown> = {}) {
    const storage = memoryStore()
    const events = new EventTarget()
    const logins: unknown[] = []
    events.addEventListener('login', (e) => logins.push((e as CustomEvent).detail))
    const store = createAuthStore({ storage, session: memoryStore(), cookies: memoryCookies(), now: () => NOW, events })
    const calls: { method: string; path: string; body?: unknown }[] = []
    const urls: string[] = []
    const reply = (path: string) => {
      const answer = answers[path]
      if (answer instanceof Error) return Promise.reject(answer)
      return Promise.resolve(answer)
    }
    const deps: WechatReturnDeps = {
      api: {
        post: <T>(path: string, body?: unknown) => {
          calls.push({ method: 'POST', path, body })
          return reply(path) as Promise<T>
        },
        get: <T>(path: string) => {
          calls.push({ method: 'GET', path })
          return reply(path) as Promise<T>
        },
      },
      store,
      replaceUrl: (url) => urls.push(url),
    }
    return { storage, store, calls, urls, logins, deps }
  }

  it('signs in on loginCallback=true: stores {token, expire} and the user info, emits login, cleans the address', async () => {
    const s = setup({
      '/wx_login': { token: 'tok-1', expire_in: 2592000, openid: 'o1' },
      '/userinfo': { id: 7, nickname: '李娜' },
    })
    const result = await finishWechatReturn('https://zixue.test/mine?loginCallback=true&code=c1&state=s1', s.deps)
    expect(result).toBe('login')
    expect(s.calls).toEqual([
      { method: 'POST', path: '/wx_login', body: { code: 'c1', state: 's1' } },
      { method: 'GET', path: '/userinfo' },
    ])
    expect(JSON.parse(s.storage.getItem(TOKEN_KEY)!)).toEqual({ token: 'tok-1', expire: NOW + 2592000 * 1000 })
    expect(s.store.getUser()).toMatchObject({ nickname: '李娜' })
    expect(s.logins).toHaveLength(1)
    expect(s.urls).toEqual(['/mine'])
  })

  it('does not sign in again when a token is stored: keeps the open id instead, and cleans the address', async () => {
    const s = setup({ '/wx_get_openid': { openid: 'o-login1' } })
    s.store.login({ token: 'already', expire_in: 3600 })
    const result = await finishWechatReturn('https://zixue.test/mine?loginCallback=true&code=c1&state=s1', s.deps)
    expect(result).toBe('openid')
    expect(s.calls).toEqual([{ method: 'POST', path: '/wx_get_openid', body: { code: 'c1', state: 's1' } }])
    expect(s.store.getToken()).toBe('already')
    expect(s.urls).toEqual(['/mine'])
  })

  it('says "snapshot" when the server refuses a snapshot-mode code (446), keeping nothing', async () => {
    const refusal = Object.assign(new Error('请点击屏幕下方的“使用完整服务”后再试'), { code: 446 })
    const s = setup({ '/wx_get_openid': refusal })
    expect(await finishWechatReturn('https://zixue.test/vip?loginCallback=false&code=c&state=s', s.deps)).toBe(
      'snapshot',
    )
    expect(s.storage.getItem(OPENID_KEY)).toBeNull()
  })

  it('keeps only the open id for 6 hours on loginCallback=false', async () => {
    const s = setup({ '/wx_get_openid': { openid: 'o-base' } })
    const result = await finishWechatReturn('https://zixue.test/vip?loginCallback=false&code=c2&state=s2', s.deps)
    expect(result).toBe('openid')
    expect(s.calls).toEqual([{ method: 'POST', path: '/wx_get_openid', body: { code: 'c2', state: 's2' } }])
    expect(JSON.parse(s.storage.getItem(OPENID_RECORD_KEY)!)).toEqual({
      openId: 'o-base',
      expire: NOW + 6 * 3600 * 1000,
    })
    expect(s.storage.getItem(OPENID_KEY)).toBe('o-base')
    expect(s.storage.getItem(TOKEN_KEY)).toBeNull()
    expect(s.logins).toHaveLength(0)
    expect(s.urls).toEqual(['/vip'])
  })

  it('stores nothing when the exchange fails, and the address is cleaned all the same', async () => {
    const s = setup({ '/wx_login': new ApiError('business', '微信授权码已使用，请重新授权', 441, 200) })
    const result = await finishWechatReturn('https://zixue.test/mine?loginCallback=true&code=c1&state=s1', s.deps)
    expect(result).toBe('failed')
    expect(s.storage.getItem(TOKEN_KEY)).toBeNull()
    expect(s.logins).toHaveLength(0)
    expect(s.urls).toEqual(['/mine'])
  })

  it('does nothing on an ordinary address', async () => {
    const s = setup()
    expect(await finishWechatReturn('https://zixue.test/mine?sp=abc', s.deps)).toBe('none')
    expect(s.calls).toEqual([])
    expect(s.urls).toEqual([])
  })
})

describe('afterPhoneLoginInWechat (spec 7: base scope after a phone login; login1 through /wechatLogin)', () => {
  it('goes to the base-scope authorization, back to the target', () => {
    const urls: string[] = []
    afterPhoneLoginInWechat('/course/12.html', '?sp=a', (u) => urls.push(u))
    expect(urls).toEqual(['/api/wechat/oauth?scope=snsapi_base&path=%2Fcourse%2F12.html'])
  })

  it('with login1 on the page: /wechatLogin with path and login1', () => {
    const urls: string[] = []
    afterPhoneLoginInWechat('/vip', '?login1=abc', (u) => urls.push(u))
    expect(urls).toEqual(['/wechatLogin?path=%2Fvip&login1=abc'])
  })
})
