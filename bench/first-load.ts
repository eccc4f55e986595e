// `npm run bench:first-load`: the learner pages' first-load JS and CSS (gzip) of the production build, and whether
// any file of the operator console (/admin) is among them. Figures, not assertions: docs/performance.md records
// them before and after a change to the console.
import zlib from 'node:zlib'
import { startServer } from '#tests/support/spawn-server.ts'

const server = await startServer({ name: 'zixue-first-load' })
const base = server.baseUrl

try {
  const home = await (await fetch(`${base}/`)).text()
  const courseId = /href="\/course\/(\d+)/.exec(home)?.[1]
  if (!courseId) throw new Error('no course link on the home page')
  const pages = ['/', `/course/${courseId}.html`, `/course/coursePurchase?course_id=${courseId}`, '/foryou/1', '/mine']
  console.log('First-load bytes of learner pages (gzip):')
  for (const page of pages) {
    const w = await pageWeight(page)
    const consoleFiles = w.files.filter((f) => /admin|console|antd(?!-mobile)|echarts|react-query/i.test(f))
    console.log(
      `  ${page.padEnd(40)} JS ${kb(w.js)} (${w.files.length} files)   CSS ${kb(w.css)}   console files: ${consoleFiles.length ? consoleFiles.join(', ') : 'none'}`,
    )
  }
} finally {
  await server.stop()
}

function kb(bytes: number) {
  return `${(bytes / 1024).toFixed(1)} KB`
}

/** The HTML's module preloads, module scripts and inline imports (JS) and stylesheets (CSS), gzip level 9. */
async function pageWeight(page: string) {
  const html = await (await fetch(base + page)).text()
  const gz = (b: Buffer) => zlib.gzipSync(b, { level: 9 }).length
  const js = [
    ...html.matchAll(/<(?:link rel="modulepreload"|script[^>]*type="module")[^>]*(?:href|src)="([^"]+\.js)"/g),
    ...html.matchAll(/import\("([^"]+\.js)"\)/g),
  ].map((m) => m[1]!)
  // Attributes in any order: the CSP nonce comes first on the stylesheets.
  const css = [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+\.css)"/g)].map((m) => m[1]!)
  const files = [...new Set(js)]
  let jsBytes = 0
  for (const f of files) jsBytes += gz(Buffer.from(await (await fetch(base + f)).arrayBuffer()))
  let cssBytes = 0
  for (const f of new Set(css)) cssBytes += gz(Buffer.from(await (await fetch(base + f)).arrayBuffer()))
  return { js: jsBytes, css: cssBytes, files }
}
