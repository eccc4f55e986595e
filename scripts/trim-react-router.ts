import type { Plugin } from 'vite'

/**
 * Build plugin (vite.config.ts): leaves code this app never runs out of React Router in the browser build, about
 * 2.9 KB gzip off every page's first load (issue 11 §4; docs/decisions/2026-11-26-first-load-chunks.md). The server
 * build keeps the library as it is. Both edits check what they replace: a React Router upgrade that changes these
 * files fails the build here, rather than quietly shipping the code again or breaking the router.
 *
 * 1. The client instrumentation (`unstable_instrumentations` of `<HydratedRouter>`), which the app never passes:
 *    an empty stand-in. The router asks `consumeInstrumentationClientResultMetaReceiver` on every navigation and
 *    fetch; without instrumentation the real one returns undefined, as the stand-in does. The others run only when
 *    instrumentations are given, and then throw instead of silently doing nothing. A new import from this module is
 *    a missing export, which fails the build.
 * 2. `<NavLink>` and `<Form>`: React Router creates them with `forwardRef(…)` and sets `displayName`, which a minifier
 *    must assume has side effects, so they, `useSubmit` and the form-submission helpers stayed in the bundle
 *    although nothing uses them. Marked pure and without the `displayName` statements, they drop out when unused;
 *    used, they work as before (only React DevTools would show them by their inner function's name).
 */

const INSTRUMENTATION = '/react-router/dist/production/lib/router/instrumentation.js'
const DOM_LIB = '/react-router/dist/production/lib/dom/lib.js'

/** The stand-in for the instrumentation module, with every export another React Router module imports. */
export const INSTRUMENTATION_STAND_IN = [
  'export function consumeInstrumentationClientResultMetaReceiver() {}',
  'function unsupported() {',
  "  throw new Error('React Router instrumentations are left out of this build (scripts/trim-react-router.ts)')",
  '}',
  'export { unsupported as getRouteInstrumentationUpdates, unsupported as instrumentClientSideRouter }',
  // The request handler's imports (server runtime), which the browser never runs.
  'export { unsupported as instrumentHandler }',
  'export const instrumentationResultMetaContext = undefined',
].join('\n')

/** The components whose creation becomes removable when unused. */
const PURE_COMPONENTS = ['NavLink', 'Form'] as const

const normal = (id: string) => id.replaceAll('\\', '/').replace(/\?.*$/, '')

/** React Router's dom/lib.js with `<NavLink>` and `<Form>` removable; throws if the code is not as expected. */
export function markComponentsPure(code: string): string {
  let out = code
  for (const name of PURE_COMPONENTS) {
    const created = `const ${name} = React$1.forwardRef(`
    const named = `\n${name}.displayName = "${name}";\n`
    if (!out.includes(created) || !out.includes(named))
      throw new Error(`trim-react-router: React Router's ${name} is not created as expected; revisit the plugin`)
    out = out.replace(created, `const ${name} = /* @__PURE__ */ React$1.forwardRef(`).replace(named, '\n\n')
  }
  return out
}

export const trimReactRouter: Plugin = {
  name: 'zixue:trim-react-router',
  applyToEnvironment: (environment) => environment.name === 'client',
  load(id) {
    return normal(id).endsWith(INSTRUMENTATION) ? INSTRUMENTATION_STAND_IN : null
  },
  transform(code, id) {
    // Lines stay where they were (the statements removed leave empty lines), so the library's source map fits.
    return normal(id).endsWith(DOM_LIB) ? { code: markComponentsPure(code), map: null } : null
  },
}
