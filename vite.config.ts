import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

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
    '/app/components/(tab-bar|error-page|loading-bar|nav-bar|page-state|course-card|course-data|icons)/',
    '/app/components/(login-popup/login-host|shell-hosts/use-consult|search-box/search-entry)',
    '/app/lib/(?!pay|wechat|antd-react19|validators|countdown|use-paged-list|use-more-pages|float-position|use-profile|use-member-action|beijing-format)[^/]+$',
    '/shared/(time|money)\\.ts$',
    'vite/preload-helper',
  ].join('|'),
)

export default defineConfig({
  plugins: [reactRouter()],
  // antd-mobile ships CSS imports inside its ES modules: bundle it for the server render too.
  ssr: { noExternal: ['antd-mobile'] },
  build: {
    target: 'es2020',
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
          ],
        },
      },
    },
  },
})
