/**
 * Small, failure-proof wrappers over localStorage, sessionStorage and document.cookie. Browsers throw on storage
 * access in some private modes and when storage is full; a failure must never break a page, so every access is
 * guarded. The interfaces let unit tests hand in memory-backed versions.
 */

export interface KeyValueStore {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

export interface CookieJar {
  get(name: string): string | undefined
  /** `maxAgeSeconds` 0 deletes the cookie. */
  set(name: string, value: string, maxAgeSeconds: number): void
  remove(name: string): void
}

/** A store backed by a Map: used on the server (no storage there) and in tests. */
export function memoryStore(): KeyValueStore & { dump(): Record<string, string> } {
  const map = new Map<string, string>()
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, String(value)),
    removeItem: (key) => void map.delete(key),
    dump: () => Object.fromEntries(map),
  }
}

/** A cookie jar backed by a Map, for tests and the server render. */
export function memoryCookies(): CookieJar & { dump(): Record<string, string> } {
  const map = new Map<string, string>()
  return {
    get: (name) => map.get(name),
    set: (name, value, maxAge) => (maxAge > 0 ? void map.set(name, value) : void map.delete(name)),
    remove: (name) => void map.delete(name),
    dump: () => Object.fromEntries(map),
  }
}

function guarded(get: () => Storage | undefined): KeyValueStore {
  const storage = () => {
    try {
      return get()
    } catch {
      return undefined
    }
  }
  return {
    getItem(key) {
      try {
        return storage()?.getItem(key) ?? null
      } catch {
        return null
      }
    },
    setItem(key, value) {
      try {
        storage()?.setItem(key, value)
      } catch {
        // full or disabled: the value just is not kept
      }
    },
    removeItem(key) {
      try {
        storage()?.removeItem(key)
      } catch {
        // disabled storage holds nothing to remove
      }
    },
  }
}

const hasWindow = typeof window !== 'undefined'

export const local: KeyValueStore = hasWindow ? guarded(() => window.localStorage) : memoryStore()
export const session: KeyValueStore = hasWindow ? guarded(() => window.sessionStorage) : memoryStore()

/** Parses a `Cookie` header or document.cookie. */
function parseCookies(header: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    const name = part.slice(0, eq).trim()
    if (!name || name in out) continue
    const raw = part.slice(eq + 1).trim()
    try {
      out[name] = decodeURIComponent(raw)
    } catch {
      out[name] = raw
    }
  }
  return out
}

export const documentCookies: CookieJar = hasWindow
  ? {
      get: (name) => parseCookies(document.cookie)[name],
      set(name, value, maxAgeSeconds) {
        const secure = window.location.protocol === 'https:' ? '; Secure' : ''
        document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; SameSite=Lax${secure}`
      },
      remove(name) {
        document.cookie = `${name}=; Path=/; Max-Age=0; SameSite=Lax`
      },
    }
  : memoryCookies()
