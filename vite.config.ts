import { reactRouter } from '@react-router/dev/vite'
import { createHash } from 'node:crypto'
import { defineConfig } from 'vite'

/**
 * CSS-module class names: `title_Ab3x9`, the local name and a hash of the file's CSS (unique per file, as
 * postcss-modules' default), without its `_…_<line>` decorations: the line numbers differ for every class and
 * compress badly in the scripts that carry the names (issue 11 §4; about 0.2 KB gzip per page).
 */
function scopedName(name: string, _file: string, css: string) {
  return `${name}_${createHash('sha1').update(css).digest('base64url').slice(0, 5)}`
}

/**
 * The learner pages' own first-load code, in one chunk (and one stylesheet) with the root: the root and its
 * start-up helpers, the tab bar, and the small components the tab pages and the course page all use. Everything
 * else is split automatically (route modules, and shared code only some screens need, such as checkout or
 * comments). docs/decisions/2026-11-26-first-load-chunks.md; server/http/first-load-budget.test.ts holds the
 * request counts.
 */
const firstLoad = new RegExp(
  [
    '/app/root\\.tsx',
    '/app/styles/',
    '/node_modules/antd-mobile/es/global/',
    '/app/routes/tabs/',
    '/app/components/(tab-bar|error-page|loading-bar|nav-bar|page-state|course-card|course-data|icons|radio-cards|section)/',
    '/app/components/login-required/',
    '/app/components/(login-popup/login-host|service-button/service-button|system-overlay/overlay-host|wechat/wechat-return|search-box/search-entry|player/use-course-access)',
    '/app/lib/(?!pay|wechat|antd-react19|validators|countdown|use-paged-list|use-more-pages|use-profile|overlay-rules|aliases|float-position)[^/]+$',
    '/shared/(time|money)\\.ts$',
    'vite/preload-helper',
  ].join('|'),
)

/**
 * Small modules that several screens share, one chunk per family instead of one file each, so that no learner page
 * needs more than 10 scripts: lists and study records, the price and payment parts (VIP, course purchase), and
 * the checkout.
 */
const screenParts: Record<string, RegExp> = {
  /** The account screens' pieces (/mine and its pages): one stylesheet for them instead of one each. */
  account: new RegExp('/app/components/(avatar|menu-list)/'),
  lists: new RegExp(
    [
      '/app/lib/(use-paged-list|use-more-pages)\\.ts$',
      '/app/components/course-list/',
      '/app/routes/learning/(studied-at|study-parts|study\\.module)',
    ].join('|'),
  ),
  pay: new RegExp(['/app/lib/pay\\.ts$', '/shared/order-states\\.ts$'].join('|')),
  checkout: new RegExp(['/app/components/(checkout|pay)/', '/app/lib/wechat-login\\.ts$'].join('|')),
}

export default defineConfig({
  plugins: [reactRouter()],
  // antd-mobile ships CSS imports inside its ES modules: bundle it for the server render too.
  ssr: { noExternal: ['antd-mobile'] },
  css: { modules: { generateScopedName: scopedName } },
  build: {
    // WeChat's in-app browsers (Android's XWeb/Chromium, iOS's WKWebView) of recent years: es2022 keeps class
    // private fields as they are (0.6 KB gzip smaller than es2020's WeakMap helpers). Safari 15 parses everything
    // this emits but class static blocks (16.4); first-load-budget.test.ts fails if a built script has one.
    target: 'es2022',
    assetsInlineLimit: 2048,
    rolldownOptions: {
      output: {
        // Two chunks every learner page loads, besides the entry, its route module and the root: React, React DOM
        // and React Router (the operator console, loaded lazily, uses them too: in one chunk their shared parts are
        // not split out into extra files), and the learner pages' own first-load code (firstLoad above).
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 2,
            },
            { name: 'app', test: (id) => firstLoad.test(id.replaceAll('\\', '/')), priority: 1 },
            ...Object.entries(screenParts).map(([name, re]) => ({
              name,
              test: (id: string) => re.test(id.replaceAll('\\', '/')),
            })),
          ],
        },
      },
    },
  },
})
