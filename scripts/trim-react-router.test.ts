import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { INSTRUMENTATION_STAND_IN, markComponentsPure, trimReactRouter } from './trim-react-router.ts'

// The installed React Router's production build, which the browser bundle is made from.
const dist = path.join(path.dirname(createRequire(import.meta.url).resolve('react-router')), '..', 'production')
const read = (file: string) => fs.readFileSync(path.join(dist, file), 'utf8')

/** Every name a React Router module imports (as a value) from the instrumentation module. */
function importedFromInstrumentation(): string[] {
  const names = new Set<string>()
  for (const file of fs.readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.js')) continue
    for (const m of read(file).matchAll(/import \{([^}]*)\} from "[./]*(?:router\/)?instrumentation\.js"/g))
      for (const name of m[1]!.split(',')) names.add(name.trim())
  }
  return [...names]
}

const hooks = trimReactRouter as unknown as {
  applyToEnvironment: (environment: { name: string }) => boolean
  load: (id: string) => string | null
  transform: (code: string, id: string) => { code: string } | null
}

describe('trimReactRouter (vite.config.ts)', () => {
  it('changes the browser build only', () => {
    expect(hooks.applyToEnvironment({ name: 'client' })).toBe(true)
    expect(hooks.applyToEnvironment({ name: 'ssr' })).toBe(false)
  })

  it("stands in for the instrumentation module with every export React Router's modules import", async () => {
    const id = path.join(dist, 'lib/router/instrumentation.js')
    expect(hooks.load(id)).toBe(INSTRUMENTATION_STAND_IN)
    expect(hooks.load(path.join(dist, 'lib/router/router.js'))).toBeNull()

    const names = importedFromInstrumentation()
    expect(names).toContain('consumeInstrumentationClientResultMetaReceiver')
    const standIn = (await import(`data:text/javascript,${encodeURIComponent(INSTRUMENTATION_STAND_IN)}`)) as Record<
      string,
      unknown
    >
    for (const name of names) expect(name in standIn, name).toBe(true)
    // Without instrumentations the router finds no receiver, as with the real module; with them the build says why.
    const consume = standIn.consumeInstrumentationClientResultMetaReceiver as (router: object) => unknown
    expect(consume({})).toBeUndefined()
    expect(() => (standIn.instrumentClientSideRouter as () => void)()).toThrow(/left out of this build/)
  })

  it('makes <NavLink> and <Form> removable, keeping <Link> and every line in place', () => {
    const id = path.join(dist, 'lib/dom/lib.js')
    const code = read('lib/dom/lib.js')
    const out = hooks.transform(code, id)!.code
    expect(out).toContain('const NavLink = /* @__PURE__ */ React$1.forwardRef(')
    expect(out).toContain('const Form = /* @__PURE__ */ React$1.forwardRef(')
    expect(out).not.toMatch(/^(NavLink|Form)\.displayName/m)
    expect(out).toContain('Link.displayName = "Link";')
    expect(out.split('\n').length).toBe(code.split('\n').length)
    expect(hooks.transform(code, path.join(dist, 'lib/hooks.js'))).toBeNull()
  })

  it('fails the build when React Router no longer creates them as expected', () => {
    expect(() => markComponentsPure('const Form = forwardRef(() => null)\n')).toThrow(/revisit the plugin/)
  })
})
