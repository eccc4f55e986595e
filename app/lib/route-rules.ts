/**
 * The rules the spec states as URL lists (sections 2 and 9), as pure functions of the location so each can be
 * tested from a table (route-rules.test.ts). Components ask these functions; none of them keeps its own list.
 */

/** The five tab screens, in bar order. The tab layout route (routes/tabs/layout.tsx) holds exactly these paths. */
export const TABS = [
  { key: 'home', path: '/', label: '首页' },
  { key: 'category', path: '/boutique', label: '分类' },
  { key: 'vip', path: '/vip', label: '会员' },
  { key: 'purchased', path: '/ke1', label: '已购' },
  { key: 'mine', path: '/mine', label: '我的' },
] as const

export type TabKey = (typeof TABS)[number]['key']

/** A path without its trailing slashes ("/" stays "/"). */
export function normalise(pathname: string): string {
  if (pathname.length > 1 && pathname.endsWith('/')) return pathname.replace(/\/+$/, '') || '/'
  return pathname || '/'
}

/** The tab a path belongs to, or null when the path is not a tab screen (no tab bar). */
export function tabForPath(pathname: string): TabKey | null {
  const path = normalise(pathname).toLowerCase()
  return TABS.find((t) => t.path.toLowerCase() === path)?.key ?? null
}

/** Spec 2: the floating service button hides on paths starting with these… */
const SERVICE_BUTTON_HIDDEN_PREFIXES = [
  '/cus',
  '/customer',
  '/course/systemCourse',
  '/course/systemGroup',
  '/workWechat',
  '/course/question',
  '/customerG',
  '/dmmHcWCus',
  '/form',
  '/course/pause',
  '/refund',
  '/customerB',
  // Not in spec 2: the operator console (issue 13).
  '/admin',
] as const

/** …and on paths containing these. */
const SERVICE_BUTTON_HIDDEN_SUBSTRINGS = ['/ac', '/contract', '/data'] as const

/** Whether the floating customer-service button shows on this path (spec 2). */
export function showsServiceButton(pathname: string): boolean {
  const path = normalise(pathname)
  if (SERVICE_BUTTON_HIDDEN_PREFIXES.some((p) => path.startsWith(p))) return false
  if (SERVICE_BUTTON_HIDDEN_SUBSTRINGS.some((s) => path.includes(s))) return false
  return true
}

/**
 * Spec 9 lists "/, /boutique, /vip, …, except /course/systemCourse and /vip/d". Its exception /course/systemCourse
 * is under none of the other entries, so "/" must be a prefix: read literally (issue 10 §4), overlays may show on
 * every page. The two exceptions stay, and so do the pages where a modal would interrupt a payment, a sign-in, a
 * contract or a form: checkout, payment results, sign-in, contract signing, forms and refunds.
 */
const OVERLAY_EXCLUDED_PATHS = [
  '/course/systemCourse',
  '/vip/d',
  // checkout and payment
  '/course/coursePurchase',
  '/course/creditPay',
  '/vipBuy',
  '/PayAmount',
  '/PaymentSuccessful',
  '/payRedirect',
  '/foryou',
  // sign-in and the profile forms
  '/wechatLogin',
  '/ke2',
  '/appLogin',
  '/headPortrait',
  '/bindPhone',
  // contracts, forms, refunds
  '/contract',
  '/form',
  '/pa/create',
  '/refund',
  '/mine/account',
  '/mine/data',
  '/agreement',
  '/__',
  // the operator console (issue 13): learners' notices are not for staff at work
  '/admin',
] as const

/**
 * A test for paths at or under any of `bases`, in any case (`/vipbuy` is under `/vipBuy`). Built once per list: the
 * layout asks on every render, the server's included.
 */
function underAny(bases: readonly string[]): (path: string) => boolean {
  const lowered = bases.map((b) => b.toLowerCase())
  return (path) => {
    const p = path.toLowerCase()
    return lowered.some((b) => p.startsWith(b) && (p.length === b.length || p[b.length] === '/'))
  }
}

const underOverlayExclusion = underAny(OVERLAY_EXCLUDED_PATHS)

/**
 * Whether to fetch and show system overlays here (spec 9, read literally): any page but the excluded ones, with
 * no `sp` in the query and no route id (a path parameter such as /teacher/12, or an `id` query parameter).
 */
export function showsOverlays(
  pathname: string,
  search: string,
  params: Readonly<Record<string, string | undefined>> = {},
): boolean {
  if (Object.values(params).some((v) => v !== undefined && v !== '')) return false
  if (underOverlayExclusion(normalise(pathname))) return false
  const query = new URLSearchParams(search)
  return !query.get('sp') && !query.get('id')
}

/** Spec 2's second "consult" button: the screens that ask for it (issue 10 §4). */
const CONSULT_PATHS = ['/course/systemCourse', '/course/systemGroup', '/vip', '/vipBuy'] as const
/** The checkout pages, where it shows only when the operator switches it on (CONSULT_ON_CHECKOUT). */
const CONSULT_CHECKOUT_PATHS = ['/course/coursePurchase', '/PayAmount', '/foryou'] as const
const underConsultPath = underAny(CONSULT_PATHS)
const underConsultCheckoutPath = underAny(CONSULT_CHECKOUT_PATHS)

/** Whether the consult button shows on this path: system courses and VIP always, checkout when configured. */
export function showsConsultButton(pathname: string, onCheckout: boolean): boolean {
  const path = normalise(pathname)
  return underConsultPath(path) || (onCheckout && underConsultCheckoutPath(path))
}

/** The page column's maximum width: 540 px for the WeCom sidebar pages, 500 px everywhere else (spec 2, 9). */
export function layoutWidth(pathname: string): 500 | 540 {
  return normalise(pathname).startsWith('/workWechat') ? 540 : 500
}

/** The cookie that marks an overlay as seen (for the caps' `seen_days`, 30 by default: spec 9). */
export function overlaySeenCookie(soId: number | string): string {
  return `so_seen_${soId}`
}

/** A chunk that failed to load reloads the page, but at most once per 60 s so a broken deploy cannot loop. */
const CHUNK_RELOAD_INTERVAL_MS = 60_000

export function mayReloadForChunkError(lastReloadAt: number | null, now: number): boolean {
  return (
    lastReloadAt === null ||
    !Number.isFinite(lastReloadAt) ||
    now - lastReloadAt >= CHUNK_RELOAD_INTERVAL_MS ||
    lastReloadAt > now
  )
}

/** Messages browsers give when a lazily loaded module (a route chunk) cannot be fetched. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error)
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|ChunkLoadError|Unable to preload CSS/i.test(
    message,
  )
}
