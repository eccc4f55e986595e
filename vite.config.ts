import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'
import { cssClassNames } from './scripts/css-class-names.ts'
import { rootStylesheetOnce } from './scripts/root-stylesheet.ts'
import { trimReactRouter } from './scripts/trim-react-router.ts'

/**
 * The learner pages' own first-load code, in one chunk (and one stylesheet) with React, React DOM and React Router:
 * the root and its start-up helpers, the tab bar, and the small components the tab pages and the course page all
 * use. Shared code only some screens need comes in families (`screenParts` below); the rest is split automatically
 * (route modules, larger pieces a screen loads later). docs/decisions/2026-11-26-first-load-chunks.md;
 * server/http/first-load-budget.test.ts holds the request counts and sizes.
 */
const firstLoad = new RegExp(
  [
    '/app/root\\.tsx',
    '/app/styles/',
    '/node_modules/antd-mobile/es/global/',
    '/app/routes/tabs/',
    '/app/components/(tab-bar|error-page|loading-bar|nav-bar|page-state|course-card|course-data|icons|radio-cards|section|cover-image)/',
    '/app/components/login-required/',
    // Its styles only: the list itself is in `lists`, and /ke1 would otherwise need a fourth stylesheet.
    '/app/components/course-list/course-list\\.module\\.css',
    // The account pieces' styles (0.4 KB gzip): /ke2 would otherwise need a fourth stylesheet; their code is `account`.
    '/app/components/(avatar|menu-list)/[^/]+\\.css$',
    '/app/components/(login-popup/login-host|service-button/service-button|system-overlay/overlay-host|wechat/wechat-return|search-box/search-entry|player/use-course-access)',
    '/app/lib/(?!pay|wechat|antd-react19|validators|countdown|use-paged-list|use-more-pages|use-profile|overlay-rules|aliases|float-position)[^/]+$',
    '/shared/(time|money|image-variants)\\.ts$',
    'vite/preload-helper',
  ].join('|'),
)

/** React, React DOM, the scheduler and React Router: every page loads all of them. */
const framework = /\/node_modules\/(react|react-dom|scheduler|react-router)\//

/**
 * Small modules that several screens share, one chunk per family instead of one file each, so that no learner page
 * needs more than 10 scripts and 3 stylesheets (server/http/first-load-budget.test.ts counts every page). A group
 * also takes what its modules import that no group before it took: `app` goes first (priority 1), then these in
 * order, so the families others build on (`pay`, `pages`, `account`) come first.
 */
const screenParts: Record<string, RegExp> = {
  /**
   * The course cards and the catalogue screens' header, error and pending state (/, /boutique, the course page
   * and the lists): out of the first-load chunk so that /vip, /ke1 and /mine do not load them. Their styles stay
   * in the first-load stylesheet (the checkout pages would need a fourth one).
   */
  catalogue: new RegExp(
    [
      '/app/components/(course-card/(course-card|course-price)|nav-bar/nav-bar|course-data/(catalogue-error|use-pending)|search-box/search-entry)\\.tsx?$',
      '/app/lib/(owned-courses|use-member-action)\\.ts$',
    ].join('|'),
  ),
  /**
   * Payments and orders without their screens: the payment helpers, order states, WeChat sign-in (the sign-in form,
   * /wechatLogin, a payment's openid), the shops platform orders come from (/data/*, /ke2, /course/ks) and the
   * tuition names (contracts, the console).
   */
  pay: new RegExp(
    [
      '/app/lib/(pay|wechat-login)\\.ts$',
      '/shared/(order-states|exchange-platforms|tuition-names)\\.ts$',
      '/shared/api/exchange-shops\\.ts$',
    ].join('|'),
  ),
  /** Paged lists (/boutique's course list, /ke1's and the other member lists). */
  pages: new RegExp('/app/lib/(use-paged-list|use-more-pages)\\.ts$'),
  /** The account screens' pieces (/mine and its pages) and the member's profile they read. */
  account: new RegExp(['/app/components/(avatar|menu-list)/[^/]+\\.tsx?$', '/app/lib/use-profile\\.ts$'].join('|')),
  /**
   * The course list (/boutique, /ke and the category lists) and the screen of a course type built on it (live
   * classes, system courses), without the study records /ke1 needs.
   */
  lists: new RegExp('/app/components/course-list/(course-list|course-type-screen)\\.tsx$'),
  /** The study records' parts (/ke1, /studyRecord, the system courses) and a system course's programme. */
  study: new RegExp('/app/routes/learning/(studied-at|study-parts|study-list|study\\.module|system-programme)'),
  /**
   * The checkout's screens and styles, with the parts of the pages that show them beside their own: the platform
   * orders to exchange (/data/*, /ke2) and the contracts' and lead forms' styles. One stylesheet instead of three.
   */
  checkout: new RegExp(
    ['/app/components/(checkout|pay|exchange)/', '/app/routes/tuition/tuition\\.module\\.css$'].join('|'),
  ),
  /** The player (/v, /li, a popup's preview in the console) with its screens' styles: one stylesheet for both pages. */
  video: new RegExp(['/app/components/player/', '/app/routes/learning/(player|live)\\.module\\.css$'].join('|')),
  /** The comments' styles, which the course page needs at once: before `comment-parts`, which would take them along. */
  'comment-styles': new RegExp('/app/components/comments/comments\\.module\\.css$'),
  /**
   * Comments and their replies: what the course page loads once its comments come into view, and /course/commentDetail
   * and /mine/comment at once. The course page's own part (course-comments.tsx) stays out.
   */
  'comment-parts': new RegExp(
    ['/app/components/comments/(?!course-comments\\.tsx)', '/shared/comment-report-reasons\\.ts$'].join('|'),
  ),
  /** The phone, code and profile forms (/headPortrait, /mine/data, /ke2, the sign-in popup, a contract's code). */
  forms: new RegExp(
    [
      '/app/components/(phone-code|bind-phone)/',
      '/app/components/login-popup/login-form',
      '/app/lib/(countdown|validators)\\.ts$',
      '/app/routes/account/(profile|purchaser-login)\\.module\\.css$',
    ].join('|'),
  ),
  /** The message screen (/wechatLogin, the service pages) and /wechatLogin's own styles. */
  message: new RegExp(
    ['/app/components/message-screen/', '/app/routes/account/wechat-login\\.module\\.css$'].join('|'),
  ),
}

const path = (id: string) => id.replaceAll('\\', '/')

export default defineConfig(({ mode }) => ({
  // trimReactRouter: React Router code the app never runs, out of the browser build (issue 11 §4). rootStylesheetOnce:
  // the first-load stylesheet is not added again, after the page's own, when a lazy chunk loads.
  plugins: [reactRouter(), trimReactRouter, rootStylesheetOnce],
  // antd-mobile ships CSS imports inside its ES modules: bundle it for the server render too.
  ssr: { noExternal: ['antd-mobile'] },
  // Short class names in the production build (scripts/css-class-names.ts).
  css: { modules: { generateScopedName: cssClassNames(mode === 'production') } },
  build: {
    // WeChat's in-app browsers (Android's XWeb/Chromium, iOS's WKWebView) of recent years: es2022 keeps class
    // private fields as they are (0.6 KB gzip smaller than es2020's WeakMap helpers). Safari 15 parses everything
    // this emits but class static blocks (16.4); first-load-budget.test.ts fails if a built script has one.
    target: 'es2022',
    // ZX_SOURCEMAP=1: source maps for profiling a build (bench/long-tasks.ts); never for a deployment, which would
    // serve them.
    sourcemap: process.env.ZX_SOURCEMAP === '1',
    assetsInlineLimit: 2048,
    rolldownOptions: {
      output: {
        // One chunk every learner page loads besides the entry, its route module and the root: the framework and
        // the first-load code above (as two files, the page's gzip was 0.7 KB larger: the second file starts with an
        // empty compression window, and their imports and exports name each other). The operator console, loaded
        // lazily, uses the framework from it too, so its shared parts are not split out into extra files.
        codeSplitting: {
          groups: [
            {
              name: 'app',
              test: (id) =>
                framework.test(path(id)) || (firstLoad.test(path(id)) && !screenParts.catalogue!.test(path(id))),
              priority: 1,
            },
            ...Object.entries(screenParts).map(([name, re]) => ({ name, test: (id: string) => re.test(path(id)) })),
          ],
        },
      },
    },
  },
}))
