import { documentCookies, local, session, type CookieJar, type KeyValueStore } from './browser-storage.ts'
import { AppEvent, emitAppEvent } from './events.ts'
import type { MemberProfile } from '#shared/api/members.ts'

/**
 * The login state of this browser (spec 3 and 4). The token lives in localStorage as `{ token, expire }`
 * (expire in ms), and the browser adds `ZXB-Token` to API calls itself. The server also keeps it in an HttpOnly
 * cookie that script cannot read and `/api` ignores: only the member pages' server render uses it
 * (docs/decisions/2026-11-26-member-session-cookie.md); every other page renders the same for everyone. The WeChat open id has its own record and key. User info is app state, mirrored in a
 * small cookie (only display fields) so a reload can show the name before /userinfo answers.
 */

export const TOKEN_KEY = 'zx_token'
export const OPENID_RECORD_KEY = 'zx_openid_record'
export const OPENID_KEY = 'zx_openid'
export const USER_COOKIE = 'zx_user'
export const SP_KEY = 'zx_sp'

/** The open-id-only record of a WeChat base-scope return lives 6 hours (spec 9). */
const OPENID_TTL_MS = 6 * 3600 * 1000
const USER_COOKIE_MAX_AGE = 30 * 24 * 3600

/**
 * What the app keeps about the member: GET /userinfo's profile (members.schema.ts), of which a stored copy from an
 * older version may lack fields; updates merge into it.
 */
export type UserInfo = Partial<MemberProfile> & { [field: string]: unknown }

export interface AuthSnapshot {
  token: string | null
  user: UserInfo | null
}

export interface AuthDeps {
  storage: KeyValueStore
  session: KeyValueStore
  cookies: CookieJar
  now: () => number
  events: EventTarget | null
}

/** The user info fields mirrored in the cookie: display only, nothing that grants anything. */
const COOKIE_FIELDS = ['member_id', 'nickname', 'avatar', 'phone'] as const

const spPattern = /^[\w.-]{1,64}$/

function readJson(storage: KeyValueStore, key: string): unknown {
  const raw = storage.getItem(key)
  if (raw === null) return undefined
  try {
    return JSON.parse(raw) as unknown
  } catch {
    return null
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Masks a phone for display: 138****5678. An already masked or short value is returned as it is. */
export function maskPhone(phone: string | null | undefined): string {
  if (!phone) return ''
  const p = phone.trim()
  return /^\d{11}$/.test(p) ? `${p.slice(0, 3)}****${p.slice(7)}` : p
}

/** What the server render and the first hydration pass see: nobody is logged in. */
export const ANONYMOUS: AuthSnapshot = Object.freeze({ token: null, user: null })

export function createAuthStore(deps: AuthDeps) {
  const listeners = new Set<() => void>()
  let snapshot: AuthSnapshot = ANONYMOUS

  function publish(next: AuthSnapshot) {
    // Signed out is always the same object, the server render's: hydration then re-renders none of the components
    // that read the login state (useSyncExternalStore compares snapshots with Object.is).
    snapshot = next.token === null && next.user === null ? ANONYMOUS : next
    for (const l of listeners) l()
  }

  /**
   * Startup rule (spec 4): a record that is not a valid object is deleted; an expire in the future makes its
   * token the auth header; otherwise the record is deleted and there is no token.
   */
  function readToken(): string | null {
    const record = readJson(deps.storage, TOKEN_KEY)
    if (record === undefined) return null
    if (
      !isRecord(record) ||
      typeof record.token !== 'string' ||
      record.token === '' ||
      typeof record.expire !== 'number'
    ) {
      deps.storage.removeItem(TOKEN_KEY)
      return null
    }
    if (record.expire > deps.now()) return record.token
    deps.storage.removeItem(TOKEN_KEY)
    return null
  }

  function readUserCookie(): UserInfo | null {
    const raw = deps.cookies.get(USER_COOKIE)
    if (!raw) return null
    try {
      const parsed = JSON.parse(raw) as unknown
      return isRecord(parsed) ? parsed : null
    } catch {
      deps.cookies.remove(USER_COOKIE)
      return null
    }
  }

  function writeUserCookie(user: UserInfo | null) {
    if (!user) return deps.cookies.remove(USER_COOKIE)
    const small: Record<string, unknown> = {}
    for (const f of COOKIE_FIELDS) {
      const v = f === 'phone' ? maskPhone(user.phone) || undefined : user[f]
      if (v !== undefined && v !== null && v !== '') small[f] = v
    }
    deps.cookies.set(USER_COOKIE, JSON.stringify(small), USER_COOKIE_MAX_AGE)
  }

  const store = {
    /** Reads the stored records (spec 4 startup). Call once in the browser before the first API call. */
    init(): AuthSnapshot {
      const token = readToken()
      const user = token ? readUserCookie() : null
      if (!token) deps.cookies.remove(USER_COOKIE)
      publish({ token, user })
      return snapshot
    },

    /** The token to send as `ZXB-Token`, or null; an expired record is cleared on the way. */
    getToken(): string | null {
      const token = readToken()
      if (token !== snapshot.token) publish({ token, user: token ? snapshot.user : null })
      return token
    },

    isLoggedIn(): boolean {
      return store.getToken() !== null
    },

    getUser(): UserInfo | null {
      return snapshot.user
    },

    /** Stores a login answer: the token until now + expire_in seconds, and the user info if given. */
    login(answer: { token: string; expire_in: number; openid?: string | null }, user: UserInfo | null = null): void {
      const expire = deps.now() + answer.expire_in * 1000
      deps.storage.setItem(TOKEN_KEY, JSON.stringify({ token: answer.token, expire }))
      if (answer.openid) store.setOpenId(answer.openid, answer.expire_in * 1000)
      writeUserCookie(user)
      publish({ token: answer.token, user })
      emitAppEvent(AppEvent.login, { user }, deps.events)
    },

    /** Merges fields into the user info (spec 4 update). */
    update(fields: UserInfo): void {
      const user = { ...(snapshot.user ?? {}), ...fields }
      writeUserCookie(user)
      publish({ token: snapshot.token, user })
    },

    /** Forgets the token, user info and open id (logout, and the client side of a 301/504 answer). */
    logout(): void {
      deps.storage.removeItem(TOKEN_KEY)
      deps.storage.removeItem(OPENID_RECORD_KEY)
      deps.storage.removeItem(OPENID_KEY)
      deps.cookies.remove(USER_COOKIE)
      const had = snapshot.token !== null || snapshot.user !== null
      publish(ANONYMOUS)
      if (had) emitAppEvent(AppEvent.logout, undefined, deps.events)
    },

    /** Keeps a WeChat open id (record with expiry plus its own key), by default for 6 hours. */
    setOpenId(openId: string, ttlMs: number = OPENID_TTL_MS): void {
      deps.storage.setItem(OPENID_RECORD_KEY, JSON.stringify({ openId, expire: deps.now() + ttlMs }))
      deps.storage.setItem(OPENID_KEY, openId)
    },

    /** The stored open id while its record is valid; an expired or broken record is removed with its key. */
    getOpenId(): string | null {
      const record = readJson(deps.storage, OPENID_RECORD_KEY)
      if (record === undefined) return null
      if (
        isRecord(record) &&
        typeof record.openId === 'string' &&
        typeof record.expire === 'number' &&
        record.expire > deps.now()
      ) {
        return record.openId
      }
      deps.storage.removeItem(OPENID_RECORD_KEY)
      deps.storage.removeItem(OPENID_KEY)
      return null
    },

    /** Keeps `sp` from a query string for this visit (spec 2); a later `sp` replaces it. */
    rememberSp(search: string): void {
      const sp = new URLSearchParams(search).get('sp')?.trim()
      if (sp && spPattern.test(sp)) deps.session.setItem(SP_KEY, sp)
    },

    /** The promotion source of this visit, sent with every API call. */
    getSp(): string | null {
      const sp = deps.session.getItem(SP_KEY)
      return sp && spPattern.test(sp) ? sp : null
    },

    // Arrow functions: React calls these detached from the store (useSyncExternalStore).
    subscribe: (listener: () => void): (() => void) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },

    getSnapshot: (): AuthSnapshot => snapshot,
  }
  return store
}

export type AuthStore = ReturnType<typeof createAuthStore>

/** The browser's store (memory-backed during the server render). */
export const authStore: AuthStore = createAuthStore({
  storage: local,
  session,
  cookies: documentCookies,
  now: () => Date.now(),
  events: typeof window === 'undefined' ? null : window,
})

// The stored records are read once, as soon as the app's code runs in the browser (spec 4 startup), and the
// landing URL's sp is kept before any component makes its first call.
if (typeof window !== 'undefined') {
  authStore.init()
  authStore.rememberSp(window.location.search)
}
