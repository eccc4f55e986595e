// The sign-in token, in the learner app's record (`zx_token`: { token, expire }, app/lib/auth-store.ts), so one
// sign-in serves both and a WeChat sign-in finished by the learner shell counts here. Written out here rather
// than importing the learner store: a module both bundles import would be split out of the learner pages' chunks
// into a shared one and grow their first load.
const TOKEN_KEY = 'zx_token'

export function getToken(): string | null {
  try {
    const record = JSON.parse(localStorage.getItem(TOKEN_KEY) ?? 'null') as { token?: string; expire?: number } | null
    return record?.token && (record.expire ?? 0) > Date.now() ? record.token : null
  } catch {
    return null
  }
}

export function saveToken(answer: { token: string; expire_in: number }) {
  localStorage.setItem(TOKEN_KEY, JSON.stringify({ token: answer.token, expire: Date.now() + answer.expire_in * 1000 }))
}

export function forgetToken() {
  localStorage.removeItem(TOKEN_KEY)
}

/** WeChat sign-in through the server (app/lib/wechat-login.ts builds the same address), back to the console. */
export const WECHAT_SIGN_IN = `/api/wechat/oauth?${new URLSearchParams({ scope: 'snsapi_userinfo', path: '/admin' })}`
