import fs from 'node:fs'
import path from 'node:path'
import type { Plugin } from 'vite'

/**
 * Build plugin (vite.config.ts): the first-load stylesheet (the `app` chunk's CSS, which the root route links on every
 * page) is never added to the page a second time.
 *
 * React Router links a stylesheet that some lazily loaded chunk also needs with a `#` at the end of its URL, so that
 * Vite's preload helper, which skips a stylesheet only when a link with the same URL is already there, adds its own
 * copy: a route's link goes when the route does, and the lazy chunk must keep its styles. For the first-load
 * stylesheet that copy is harmful. The root's link never goes, and the copy lands at the end of the head, after the
 * page's own stylesheets, so the shared rules (`zx-bareButton`, `zx-wrap`…) win over the page's again: in WeChat,
 * where the share SDK loads lazily, the video page lost its chosen speed's highlight and the course page its spacing.
 * Here every chunk's preload list names that stylesheet as the root links it (with the `#`), so the helper finds the
 * root's link and adds nothing.
 */
export const rootStylesheetOnce: Plugin = {
  name: 'zixue:root-stylesheet-once',
  apply: 'build',
  applyToEnvironment: (environment) => environment.name === 'client',
  writeBundle(options, bundle) {
    const app = Object.values(bundle).find((file) => file.type === 'chunk' && file.name === 'app')
    const sheets = app?.type === 'chunk' ? [...(app.viteMetadata?.importedCss ?? [])] : []
    if (sheets.length === 0) throw new Error('root-stylesheet: no `app` chunk with a stylesheet in the client build')
    const dir = options.dir ?? path.dirname(options.file ?? '')
    for (const file of Object.values(bundle)) {
      if (file.type !== 'chunk') continue
      const where = path.join(dir, file.fileName)
      const code = fs.readFileSync(where, 'utf8')
      let changed = code
      for (const sheet of sheets) changed = changed.replaceAll(`"${sheet}"`, `"${sheet}#"`)
      if (changed !== code) fs.writeFileSync(where, changed)
    }
  },
}
