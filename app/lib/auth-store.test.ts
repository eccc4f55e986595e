import { describe, expect, it, vi } from 'vitest'
import { memoryCookies, memoryStore } from './browser-storage.ts'
import {
  ANONYMOUS,
  OPENID_KEY,
  OPENID_RECORD_KEY,
  SP_KEY,
  TOKEN_KEY,
  USER_COOKIE,
  createAuthStore,
  maskPhone,
} from './auth-store.ts'

function setup(now = 1_700_000_000_000) {
  const clock = { now }
  const storage = memoryStore()
  const session = memoryStore()
  const cookies = memoryCookies()
  const events = new EventTarget()
  const store = createAuthStore({ storage, session, cookies, now: () => clock.now, events })
  return { store, storage, session, cookies, events, clock }
}

describe('token record at startup (spec 4)', () => {
  it('starts anonymous without a record', () => {
    const { store } = setup()
    expect(store.init()).toEqual({ token: null, user: null })
  })

  it("gives a signed-out browser the server render's own snapshot, so hydration re-renders nothing", () => {
    // useSyncExternalStore compares snapshots with Object.is: another empty object would render every component that
    // reads the login state (every course card) a second time, right after hydration (issue 11 §4: /'s TBT).
    const { store, storage, clock } = setup()
    expect(store.init()).toBe(ANONYMOUS)
    expect(store.getSnapshot()).toBe(ANONYMOUS)
    storage.setItem(TOKEN_KEY, JSON.stringify({ token: 'tok_ok', expire: clock.now + 1 }))
    expect(store.init()).not.toBe(ANONYMOUS)
    store.logout()
    expect(store.getSnapshot()).toBe(ANONYMOUS)
  })

  it.each([
    ['not JSON', 'abc{'],
    ['a number', '5'],
    ['an array', '["tok", 1]'],
    ['null', 'null'],
    ['no token', JSON.stringify({ expire: 9e15 })],
    ['an empty token', JSON.stringify({ token: '', expire: 9e15 })],
    ['expire as text', JSON.stringify({ token: 'tok', expire: '9999999999999' })],
  ])('deletes a record that is %s', (_what, raw) => {
    const { store, storage } = setup()
    storage.setItem(TOKEN_KEY, raw)
    expect(store.init().token).toBeNull()
    expect(storage.getItem(TOKEN_KEY)).toBeNull()
  })

  it('uses a token whose expire is in the future', () => {
    const { store, storage, clock } = setup()
    storage.setItem(TOKEN_KEY, JSON.stringify({ token: 'tok_ok', expire: clock.now + 1 }))
    expect(store.init().token).toBe('tok_ok')
    expect(store.getToken()).toBe('tok_ok')
  })

  it('clears the record when expire has passed', () => {
    const { store, storage, clock } = setup()
    storage.setItem(TOKEN_KEY, JSON.stringify({ token: 'tok_old', expire: clock.now }))
    expect(store.init().token).toBeNull()
    expect(storage.getItem(TOKEN_KEY)).toBeNull()
  })

  it('reads the user info mirrored in the cookie only alongside a valid token', () => {
    const { store, storage, cookies, clock } = setup()
    cookies.set(USER_COOKIE, JSON.stringify({ nickname: '小周' }), 100)
    expect(store.init().user).toBeNull()
    expect(cookies.get(USER_COOKIE)).toBeUndefined()
    storage.setItem(TOKEN_KEY, JSON.stringify({ token: 'tok', expire: clock.now + 1000 }))
    cookies.set(USER_COOKIE, JSON.stringify({ nickname: '小周' }), 100)
    expect(store.init().user).toEqual({ nickname: '小周' })
  })
})

describe('login, update, logout (spec 3 and 4)', () => {
  it('stores the token until now + expire_in seconds and announces the login', () => {
    const { store, storage, events, clock } = setup()
    const onLogin = vi.fn()
    events.addEventListener('login', onLogin)
    store.login({ token: 'tok_new', expire_in: 2_592_000 })
    expect(JSON.parse(storage.getItem(TOKEN_KEY)!)).toEqual({ token: 'tok_new', expire: clock.now + 2_592_000_000 })
    expect(store.getToken()).toBe('tok_new')
    expect(onLogin).toHaveBeenCalledTimes(1)
  })

  it('stops sending a token once it expires', () => {
    const { store, storage, clock } = setup()
    store.login({ token: 'tok', expire_in: 60 })
    clock.now += 60_000
    expect(store.getToken()).toBeNull()
    expect(store.getSnapshot().token).toBeNull()
    expect(storage.getItem(TOKEN_KEY)).toBeNull()
  })

  it('keeps the open id a WeChat login returns', () => {
    const { store, storage } = setup()
    store.login({ token: 'tok', expire_in: 3600, openid: 'o_abc' })
    expect(storage.getItem(OPENID_KEY)).toBe('o_abc')
    expect(store.getOpenId()).toBe('o_abc')
  })

  it('merges updates into the user info and mirrors only display fields, phone masked, in the cookie', () => {
    const { store, cookies } = setup()
    store.login({ token: 'tok', expire_in: 3600 })
    store.update({ member_id: 100001, nickname: '小周', phone: '13800138000', role: 'member' })
    store.update({ nickname: '周同学' })
    expect(store.getUser()).toEqual({ member_id: 100001, nickname: '周同学', phone: '13800138000', role: 'member' })
    expect(JSON.parse(cookies.get(USER_COOKIE)!)).toEqual({
      member_id: 100001,
      nickname: '周同学',
      phone: '138****8000',
    })
  })

  it('forgets token, user info and open id on logout, and says so', () => {
    const { store, storage, cookies, events } = setup()
    const onLogout = vi.fn()
    events.addEventListener('logout', onLogout)
    store.login({ token: 'tok', expire_in: 3600, openid: 'o_1' })
    store.update({ nickname: 'a' })
    store.logout()
    expect(store.getSnapshot()).toEqual({ token: null, user: null })
    expect(storage.dump()).toEqual({})
    expect(cookies.dump()).toEqual({})
    expect(onLogout).toHaveBeenCalledTimes(1)
  })

  it('tells subscribers about every change', () => {
    const { store } = setup()
    const listener = vi.fn()
    const stop = store.subscribe(listener)
    store.login({ token: 'tok', expire_in: 10 })
    store.update({ nickname: 'b' })
    store.logout()
    stop()
    store.login({ token: 'tok2', expire_in: 10 })
    expect(listener).toHaveBeenCalledTimes(3)
  })
})

describe('open id record (spec 3, 4, 9)', () => {
  it('lives 6 hours by default, then is removed with its key', () => {
    const { store, storage, clock } = setup()
    store.setOpenId('o_base')
    expect(JSON.parse(storage.getItem(OPENID_RECORD_KEY)!)).toEqual({
      openId: 'o_base',
      expire: clock.now + 6 * 3600 * 1000,
    })
    clock.now += 6 * 3600 * 1000 - 1
    expect(store.getOpenId()).toBe('o_base')
    clock.now += 1
    expect(store.getOpenId()).toBeNull()
    expect(storage.getItem(OPENID_KEY)).toBeNull()
    expect(storage.getItem(OPENID_RECORD_KEY)).toBeNull()
  })

  it('removes a broken record', () => {
    const { store, storage } = setup()
    storage.setItem(OPENID_RECORD_KEY, '{oops')
    storage.setItem(OPENID_KEY, 'o_x')
    expect(store.getOpenId()).toBeNull()
    expect(storage.getItem(OPENID_KEY)).toBeNull()
  })
})

describe('sp for the visit (spec 2)', () => {
  it('keeps sp from the landing URL and replaces it with a later one', () => {
    const { store, session } = setup()
    expect(store.getSp()).toBeNull()
    store.rememberSp('?sp=ks01&x=1')
    expect(store.getSp()).toBe('ks01')
    store.rememberSp('?other=1')
    expect(store.getSp()).toBe('ks01')
    store.rememberSp('?sp=dy02')
    expect(session.getItem(SP_KEY)).toBe('dy02')
  })

  it.each(['?sp=', '?sp=%3Cscript%3E', `?sp=${'a'.repeat(65)}`])('ignores an unusable sp (%s)', (search) => {
    const { store } = setup()
    store.rememberSp(search)
    expect(store.getSp()).toBeNull()
  })
})

describe('maskPhone', () => {
  it.each([
    ['13800138000', '138****8000'],
    ['138****8000', '138****8000'],
    ['', ''],
    [null, ''],
  ])('%s → %s', (phone, masked) => {
    expect(maskPhone(phone)).toBe(masked)
  })
})
