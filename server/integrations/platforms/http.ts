/** Outbound HTTP of the platform adapters (tests route it into the app, where the simulators listen). */
export type PlatformFetch = typeof globalThis.fetch

/**
 * Douyin's client_token (client_credential), fetched once and kept until five minutes before it expires
 * (open-douyin "生成 client_token": POST /oauth/client_token/, `data.access_token`, `data.expires_in` seconds).
 */
export function clientTokenCache(baseUrl: string, clientKey: string, clientSecret: string, fetch: PlatformFetch) {
  let cached: { token: string; until: number } | null = null
  return async () => {
    if (cached && cached.until > Date.now()) return cached.token
    const res = await fetch(`${baseUrl}/oauth/client_token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_key: clientKey, client_secret: clientSecret, grant_type: 'client_credential' }),
    })
    const body = (await res.json()) as { data?: { access_token?: string; expires_in?: number; error_code?: number } }
    if (!res.ok || !body.data?.access_token) throw new Error(`Douyin client_token failed (${body.data?.error_code})`)
    cached = { token: body.data.access_token, until: Date.now() + ((body.data.expires_in ?? 7200) - 300) * 1000 }
    return cached.token
  }
}
