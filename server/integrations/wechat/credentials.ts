/**
 * Where the WeChat adapter keeps the credentials every process of a site must share (the client-credential
 * access_token and the JS-SDK jsapi_ticket): fetched by one process, used by all until shortly before they expire.
 * The composition root passes a store in PostgreSQL (server/modules/wechat/credentials.repository.ts); without one
 * (tests of the adapter, scripts) they live in this process's memory.
 */
export interface SharedCredential {
  value: string
  expiresAt: Date
}

export interface CredentialStore {
  /** The stored credential, or null; a plain read (no lock). */
  read(name: string): Promise<SharedCredential | null>
  /**
   * Holding a lock every process of the site shares: reads `name` again and returns it when `usable`, otherwise
   * calls `fetch` (once, in one process) and stores its answer. Callers wait for the holder instead of fetching too.
   */
  refresh(
    name: string,
    usable: (stored: SharedCredential | null) => boolean,
    fetch: () => Promise<SharedCredential>,
  ): Promise<SharedCredential>
}

/** A store in this process's memory, one refresh at a time per name. */
export function memoryCredentialStore(): CredentialStore {
  const values = new Map<string, SharedCredential>()
  const locks = new Map<string, Promise<unknown>>()
  return {
    async read(name) {
      return values.get(name) ?? null
    },
    async refresh(name, usable, fetch) {
      const previous = locks.get(name) ?? Promise.resolve()
      const run = previous
        .catch(() => {})
        .then(async () => {
          const stored = values.get(name) ?? null
          if (usable(stored)) return stored!
          const fresh = await fetch()
          values.set(name, fresh)
          return fresh
        })
      locks.set(name, run)
      try {
        return await run
      } finally {
        if (locks.get(name) === run) locks.delete(name)
      }
    },
  }
}
