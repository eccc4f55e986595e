/** Outbound HTTP of the platform adapters (tests route it into the app, where the simulators listen). */
export type PlatformFetch = typeof globalThis.fetch

/**
 * An access token fetched once and kept until five minutes before it expires; `fetchToken` asks the platform for a
 * new one (every platform's adapter has one: Douyin's client_token, Doudian's token.create, Kuaishou's and
 * Xiaohongshu's refresh, WeChat's stable_token).
 */
export function tokenCache(fetchToken: () => Promise<{ token: string; expiresInSeconds: number }>) {
  let cached: { token: string; until: number } | null = null
  return async () => {
    if (cached && cached.until > Date.now()) return cached.token
    const t = await fetchToken()
    cached = { token: t.token, until: Date.now() + (t.expiresInSeconds - 300) * 1000 }
    return cached.token
  }
}

/**
 * Douyin's client_token (client_credential), fetched once and kept until five minutes before it expires
 * (open-douyin "生成 client_token": POST /oauth/client_token/, `data.access_token`, `data.expires_in` seconds).
 */
export function clientTokenCache(baseUrl: string, clientKey: string, clientSecret: string, fetch: PlatformFetch) {
  return tokenCache(async () => {
    const res = await fetch(`${baseUrl}/oauth/client_token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_key: clientKey, client_secret: clientSecret, grant_type: 'client_credential' }),
    })
    const body = (await res.json()) as { data?: { access_token?: string; expires_in?: number; error_code?: number } }
    if (!res.ok || !body.data?.access_token) throw new Error(`Douyin client_token failed (${body.data?.error_code})`)
    return { token: body.data.access_token, expiresInSeconds: body.data.expires_in ?? 7200 }
  })
}

/** A buyer's phone when the platform gives it in the clear (a mainland mobile number); null when masked or encrypted. */
export const clearPhone = (v: string | null | undefined) => (v && /^1\d{10}$/.test(v) ? v : null)

/**
 * Every page of a platform's order list, up to `maxPages` (the sync reads a few minutes of changes at a time): `page`
 * answers one page and whether there is another (`next`, a page number or a cursor).
 */
export async function allPages<T, C>(
  first: C,
  page: (at: C) => Promise<{ items: T[]; next: C | null }>,
  maxPages = 50,
): Promise<T[]> {
  const out: T[] = []
  let at: C | null = first
  for (let i = 0; i < maxPages && at !== null; i++) {
    const r = await page(at)
    out.push(...r.items)
    at = r.next
  }
  return out
}
