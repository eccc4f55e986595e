// What a server-rendered page makes the browser fetch before it is interactive, read from its HTML: shared by the
// first-load bench (bench/first-load.ts) and the request-count test (server/http/first-load-budget.test.ts).

/** Issue 11 §4: at most this many script and stylesheet requests before a learner page is interactive. */
export const FIRST_LOAD_GOAL = { scripts: 10, stylesheets: 3 } as const

/**
 * Issue 11 §4's first-load JS goals (KB gzip, level 9): the tab pages 120, the course page 135. Both are met since
 * 2026-11-26 (tab pages 117.1–118.5 KB once React Router's unused code left the browser build, docs/performance.md),
 * so the budget test holds the tab pages to the goal itself (`tabCeiling`).
 */
export const FIRST_LOAD_JS_KB = { tabGoal: 120, tabCeiling: 120, course: 135 } as const

/** The five tab pages: the size budget's (the request budget covers every learner page). */
export const TAB_PAGES = ['/', '/boutique', '/vip', '/ke1', '/mine'] as const

/**
 * The page's module preloads, module scripts and inline imports (scripts), and its stylesheets, each file once.
 * Attributes come in any order (the CSP nonce comes first on stylesheets) and a URL may end in `#` (React Router
 * marks stylesheets the entry shares that way).
 */
export function firstLoadAssets(html: string): { scripts: string[]; stylesheets: string[] } {
  const scripts = [
    ...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"#]+\.js)#?"/g),
    ...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"#]+\.js)#?"/g),
    ...html.matchAll(/import\("([^"#]+\.js)#?"\)/g),
  ].map((m) => m[1]!)
  const stylesheets = [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"#]+\.css)#?"/g)].map(
    (m) => m[1]!,
  )
  return { scripts: [...new Set(scripts)], stylesheets: [...new Set(stylesheets)] }
}
